import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface ListedFile {
  readonly absPath: string;
  /** Project-relative path with forward slashes. */
  readonly path: string;
  /** Folders between the search directory and the file. */
  readonly folders: readonly string[];
  readonly stem: string;
}

/** Every file under `root/dir` whose name ends with one of `extensions`, sorted by path. */
export function listFiles(root: string, dir: string, extensions: readonly string[]): ListedFile[] {
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  // Paths are built by concatenation below `base` (path.join per file is a measurable cost at 10,000 models).
  const prefix = relative(root, base).split(sep).join('/');
  const out: ListedFile[] = [];
  const walk = (abs: string, rel: string, folders: string[]): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const child = `${abs}${sep}${entry.name}`;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(child, path, [...folders, entry.name]);
      } else {
        const ext = extensions.find((e) => entry.name.endsWith(e));
        if (ext) out.push({ absPath: child, path, folders, stem: entry.name.slice(0, -ext.length) });
      }
    }
  };
  walk(base, prefix, []);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
