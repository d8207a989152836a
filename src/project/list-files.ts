import { existsSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { warnUser } from '../errors/user-warning.js';

export interface ListedFile {
  readonly absPath: string;
  /** Project-relative path with forward slashes. */
  readonly path: string;
  /** Folders between the search directory and the file. */
  readonly folders: readonly string[];
  readonly stem: string;
}

/**
 * Every file under `root/dir` whose name ends with one of `extensions`, sorted by path.
 * A symlink to a file counts as that file; a matching entry that is not a
 * readable regular file (a dangling symlink, a FIFO, whose read would block
 * forever, a socket or device) is skipped with a one-line warning.
 */
export function listFiles(root: string, dir: string, extensions: readonly string[]): ListedFile[] {
  const readdir = (abs: string): Dirent[] => {
    const known = listings?.get(abs);
    if (known) return known;
    const entries = readdirSync(abs, { withFileTypes: true });
    listings?.set(abs, entries);
    return entries;
  };
  const base = join(root, dir);
  if (!existsSync(base)) return [];
  // Paths are built by concatenation below `base` (path.join per file is a measurable cost at 10,000 models).
  const prefix = relative(root, base).split(sep).join('/');
  const out: ListedFile[] = [];
  const walk = (abs: string, rel: string, folders: string[]): void => {
    for (const entry of readdir(abs)) {
      if (entry.name.startsWith('.')) continue;
      const child = `${abs}${sep}${entry.name}`;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(child, path, [...folders, entry.name]);
      } else {
        const ext = extensions.find((e) => entry.name.endsWith(e));
        if (ext && isReadableFile(entry, child, path)) out.push({ absPath: child, path, folders, stem: entry.name.slice(0, -ext.length) });
      }
    }
  };
  walk(base, prefix, []);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Folder listings kept while withFolderListings runs (null outside it: every listFiles reads the disk). */
let listings: Map<string, Dirent[]> | null = null;

/**
 * Run `fn` with each folder read once: a project load lists its model paths
 * for .sql, .yml, .md (docs) and snapshot yml files, four walks of the same
 * 10,000 entries at 10,000 models. Only for the duration of `fn`, so a later
 * load sees the folders as they are then.
 */
export function withFolderListings<T>(fn: () => T): T {
  if (listings) return fn();
  listings = new Map();
  try {
    return fn();
  } finally {
    listings = null;
  }
}

/** A regular file, or a symlink to one; anything else is skipped with a warning saying what it is. */
function isReadableFile(entry: Dirent, abs: string, path: string): boolean {
  if (entry.isFile()) return true;
  let what: string;
  if (entry.isSymbolicLink()) {
    let target: Stats | undefined;
    let code: unknown;
    try {
      target = statSync(abs);
    } catch (err) {
      code = (err as { code?: unknown }).code;
    }
    if (target?.isFile()) return true;
    what = target ? `a symlink to ${kindOf(target)}` : code === 'ENOENT' ? 'a symlink to nothing (dangling)' : code === 'ELOOP' ? 'a symlink loop' : 'a symlink that cannot be followed';
  } else {
    what = kindOf(entry);
  }
  warnUser(`skipping ${path}: it is ${what}, not a file`);
  return false;
}

function kindOf(entry: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  return entry.isDirectory() ? 'a directory' : entry.isFIFO() ? 'a named pipe (FIFO)' : entry.isSocket() ? 'a socket' : 'a device or special file';
}
