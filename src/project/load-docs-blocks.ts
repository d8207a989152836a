import { readFileSync } from 'node:fs';
import { ProjectError } from '../errors/project-error.js';
import type { DocsBlock } from './docs-block.js';
import { listFiles } from './list-files.js';

/** A docs tag (`{% docs name %}`, `{%- enddocs -%}`): its keyword and what follows it inside the tag. */
const TAG = /\{%-?\s*(docs|enddocs)\b([^%]*?)-?%\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/**
 * dbt's default docs-paths: every resource path (models, seeds, snapshots, analyses, macros, tests),
 * without trailing slashes and each once.
 */
export function defaultDocsPaths(paths: readonly (readonly string[])[]): string[] {
  return [...new Set(paths.flat().map((p) => p.replace(/\/+$/, '')))];
}

/** The docs blocks of one markdown file; text outside the blocks is ignored, as dbt ignores it. */
function blocksOf(text: string, path: string, relativePath: string): DocsBlock[] {
  const out: DocsBlock[] = [];
  let open: { name: string; line: number; bodyStart: number } | undefined;
  for (const m of text.matchAll(TAG)) {
    const line = lineAt(text, m.index);
    if (m[1] === 'docs') {
      if (open) {
        throw new ProjectError(`docs block '${open.name}' has no {% enddocs %} before the next {% docs %} (line ${line})`, {
          location: { file: path, line: open.line },
          hint: 'close each block with {% enddocs %}',
        });
      }
      const name = m[2]!.trim();
      if (!NAME.test(name)) {
        throw new ProjectError(name === '' ? 'a {% docs %} block needs a name' : `'${name}' is not a valid docs block name`, {
          location: { file: path, line },
          hint: 'write {% docs orders %} ... {% enddocs %}: a name of letters, digits and underscores',
        });
      }
      open = { name, line, bodyStart: m.index + m[0].length };
    } else if (open) {
      out.push({ name: open.name, path, relativePath, line: open.line, contents: text.slice(open.bodyStart, m.index).trim() });
      open = undefined;
    }
  }
  if (open) {
    throw new ProjectError(`docs block '${open.name}' has no {% enddocs %}`, { location: { file: path, line: open.line }, hint: 'close the block with {% enddocs %}' });
  }
  return out;
}

/** Every docs block in the .md files under `dirs`; two blocks of one name are an error naming both places. */
export function loadDocsBlocks(root: string, dirs: readonly string[]): DocsBlock[] {
  const seenFiles = new Set<string>();
  const byName = new Map<string, DocsBlock>();
  for (const dir of dirs) {
    for (const f of listFiles(root, dir, ['.md'])) {
      if (seenFiles.has(f.path)) continue; // a docs path inside another one
      seenFiles.add(f.path);
      const relativePath = [...f.folders, `${f.stem}.md`].join('/');
      for (const block of blocksOf(readFileSync(f.absPath, 'utf8'), f.path, relativePath)) {
        const other = byName.get(block.name);
        if (other) {
          throw new ProjectError(`two docs blocks are named '${block.name}': ${other.path}:${other.line} and ${block.path}:${block.line}`, {
            location: { file: block.path, line: block.line },
            hint: 'doc() could not tell them apart; rename or remove one of them',
          });
        }
        byName.set(block.name, block);
      }
    }
  }
  return [...byName.values()];
}
