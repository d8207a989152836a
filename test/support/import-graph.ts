import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import between two files of src/: `type` when it can only bring types (erased at build). */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly type: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

/** Whether an import clause brings only types: `import type`, or every named item marked `type`. */
function typeOnly(keywordType: boolean, clause: string): boolean {
  if (keywordType) return true;
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!named) return false;
  const items = named[1]!.split(',').map((s) => s.trim()).filter(Boolean);
  return items.length > 0 && items.every((s) => s.startsWith('type '));
}

/** Every relative import between the files under `root` (paths relative to root, .ts). */
export function importEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of tsFiles(root)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[4] ?? m[5]!;
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      edges.push({ from: relative(root, file), to: relative(root, target), type: m[5] === undefined && typeOnly(m[2] !== undefined, m[3] ?? '') });
    }
  }
  return edges;
}

/** The folder a file of src/ belongs to (a file at the top is its own unit, e.g. `index.ts`). */
export function folderOf(path: string): string {
  const i = path.indexOf('/');
  return i < 0 ? path : path.slice(0, i);
}

/** The strongly connected components with more than one member (Tarjan). */
export function cycles(nodes: Iterable<string>, edges: readonly { from: string; to: string }[]): string[][] {
  const out = new Map<string, string[]>();
  for (const e of edges) (out.get(e.from) ?? out.set(e.from, []).get(e.from)!).push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of out.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (out.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}
