import { readFileSync } from 'node:fs';
import { ProjectError } from '../errors/project-error.js';
import { listFiles } from './list-files.js';
import { readYamlFile } from './read-yaml-file.js';
import type { SnapshotDefinition } from './snapshot-definition.js';

const BLOCK = /\{%-?\s*snapshot\s+([A-Za-z_][A-Za-z0-9_]*)\s*-?%\}([\s\S]*?)\{%-?\s*endsnapshot\s*-?%\}/g;
/** A yml snapshot entry's description and columns, as a model's properties carry them. */
function describedBy(e: { description?: unknown; columns?: unknown }, file: string, line: number): Pick<SnapshotDefinition, 'description' | 'columns' | 'propertiesAt'> {
  const columns = Array.isArray(e.columns)
    ? e.columns.filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null && typeof (c as { name?: unknown }).name === 'string').map((c) => ({
      name: c.name as string,
      description: typeof c.description === 'string' ? c.description : undefined,
      dataType: typeof c.data_type === 'string' ? c.data_type : undefined,
      tests: [],
    }))
    : undefined;
  return { ...(typeof e.description === 'string' ? { description: e.description } : {}), ...(columns ? { columns } : {}), propertiesAt: { file, line } };
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every snapshot under the snapshot paths: `{% snapshot %}` blocks in .sql files and `snapshots:` entries in yml. */
export function loadSnapshots(root: string, dirs: readonly string[], propertyDirs: readonly string[] = []): SnapshotDefinition[] {
  const out: SnapshotDefinition[] = [];
  /** yml entries without `relation`: properties of a block snapshot (its config, below the block's config()). */
  const patches = new Map<string, { config: Record<string, unknown>; described: ReturnType<typeof describedBy> }>();
  for (const dir of dirs) {
    for (const f of listFiles(root, dir, ['.sql'])) {
      const text = readFileSync(f.absPath, 'utf8');
      let found = 0;
      for (const m of text.matchAll(BLOCK)) {
        found += 1;
        const bodyStart = m.index! + m[0].indexOf('%}') + 2;
        out.push({ name: m[1]!, path: f.path, absPath: f.absPath, line: lineAt(text, m.index!), rawSql: m[2]!, bodyLineOffset: lineAt(text, bodyStart) - 1, config: {}, folders: f.folders });
      }
      const open = text.search(/\{%-?\s*snapshot\b/);
      if (open >= 0 && found === 0) {
        throw new ProjectError('a {% snapshot %} block needs a name and an {% endsnapshot %}', {
          location: { file: f.path, line: lineAt(text, open) },
          hint: 'write {% snapshot orders_snapshot %} select ... {% endsnapshot %}',
        });
      }
    }
  }
  for (const dir of [...new Set([...dirs, ...propertyDirs])]) {
    for (const f of listFiles(root, dir, ['.yml', '.yaml'])) {
      const yml = readYamlFile(f.absPath, f.path);
      const list = (yml.value as { snapshots?: unknown } | null)?.snapshots;
      if (!Array.isArray(list)) continue;
      list.forEach((entry: unknown, i) => {
        const e = (entry ?? {}) as { name?: unknown; relation?: unknown; config?: unknown; description?: unknown; columns?: unknown };
        const line = yml.lineOf(['snapshots', i]) ?? 1;
        if (typeof e.name !== 'string' || (e.relation !== undefined && typeof e.relation !== 'string')) {
          throw new ProjectError("a yml snapshot needs a 'name' (and, to define one, a 'relation': ref('x') or source('s', 't'))", { location: { file: f.path, line } });
        }
        const config = e.config && typeof e.config === 'object' ? (e.config as Record<string, unknown>) : {};
        if (e.relation === undefined) {
          patches.set(e.name, { config, described: describedBy(e, f.path, line) });
          return;
        }
        out.push({ name: e.name, path: f.path, absPath: f.absPath, line, rawSql: `select * from {{ ${e.relation} }}`, bodyLineOffset: line - 1, config, folders: f.folders, ...describedBy(e, f.path, line) });
      });
    }
  }
  for (const [i, def] of out.entries()) {
    const patch = patches.get(def.name);
    if (patch) out[i] = { ...def, ...patch.described, config: { ...patch.config, ...def.config } };
  }
  const seen = new Map<string, SnapshotDefinition>();
  for (const s of out) {
    const other = seen.get(s.name);
    if (other) throw new ProjectError(`two snapshots are named '${s.name}': ${other.path}:${other.line} and ${s.path}:${s.line}`, { location: { file: s.path, line: s.line } });
    seen.set(s.name, s);
  }
  return out;
}
