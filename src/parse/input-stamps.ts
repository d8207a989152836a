/**
 * A stamp of a project's input files, so a later load can tell that none of
 * them changed without reading them (git's index, dbt's partial parse): every
 * folder's entries and times (a file added, removed or renamed changes them)
 * and every file's size, modification time, change time and inode, all
 * hashed into one digest (stored, it is compared, not read back).
 *
 * A stamp only vouches for files (and folders) that were already old when
 * the load that took it began: one whose modification or change time is not
 * older than that moment by a margin could have been changed after it was
 * read, within the same clock tick as the stamp's (same size, same times: a
 * coarse file system, a fast editor or script). `newest` tells the caller
 * whether to keep a stamp at all. The change time cannot be set back by a
 * tool that restores a modification time (touch -d, tar, rsync -t), so it
 * is part of the stamp and of `newest` too.
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync, type Stats } from 'node:fs';
import { sep } from 'node:path';

export interface InputStamp {
  /** The hash of every stamped folder's entries and times and every file's stamp. */
  readonly digest: string;
  /** The latest modification or change time among them (milliseconds; -Infinity: none). */
  readonly newest: number;
  /** The stamp itself (the digest is its hash): what the ls answer cache compares (ls-answer-cache.ts). */
  readonly raw: RawStamp;
}

/** A stamp before hashing: the folders' paths and entry names, and five numbers per entry (kind, size, mtimeMs, ctimeMs, inode). */
export interface RawStamp {
  readonly text: string;
  readonly numbers: Float64Array;
  readonly newest: number;
}

/** The trust margin: more than any file system's timestamp granularity (FAT's is 2 s). */
export const TRUST_MARGIN_MS = 2_000;

/**
 * Stamp every file under `dirs` (recursively, symlinks followed, each real
 * folder once; dot entries left out, as the loaders leave them out) and
 * each of `files` (present or not). The same files give the same digest.
 * `present` receives the path of every file found.
 */
export function stampInputs(dirs: readonly string[], files: readonly string[], present?: Set<string>): InputStamp {
  const raw = rawStamp(dirs, files, present);
  const digest = createHash('sha256').update(raw.text).update('\0').update(raw.numbers).digest('hex');
  return { digest, newest: raw.newest, raw };
}

/**
 * stampInputs' stamp, not hashed (no node:crypto to load: the bin compares
 * it as it is). `fromInside`: each folder's entries are stat'ed by name
 * from inside it (process.chdir), which spares the kernel resolving the
 * whole path again for each of them (about a sixth of the walk's time); the
 * working directory is put back before this returns (if it cannot be, this
 * throws). The working directory is the process's, so only for a process
 * doing nothing else meanwhile (the bin).
 */
export function rawStamp(dirs: readonly string[], files: readonly string[], present?: Set<string>, fromInside = false): RawStamp {
  const home = fromInside ? process.cwd() : undefined;
  let moved = false;
  /** Into `dir`, to stat its entries by name; false: by their whole path. */
  const enter = (dir: string): boolean => {
    if (home === undefined) return false;
    try {
      process.chdir(dir);
      moved = true;
      return true;
    } catch {
      return false;
    }
  };
  try {
    return walkAndStamp(dirs, files, present, enter);
  } finally {
    if (moved) process.chdir(home!); // throws if it cannot: the caller must not go on elsewhere
  }
}

function walkAndStamp(dirs: readonly string[], files: readonly string[], present: Set<string> | undefined, enter: (dir: string) => boolean): RawStamp {
  // Paths and names as text; every stamp as five numbers (kind, size, mtimeMs, ctimeMs, inode), in walk order:
  // no string per file (formatting 30,000 times costs more than the stats).
  const text: string[] = [];
  let numbers = new Float64Array(5 * 1024);
  let count = 0;
  let newest = -Infinity;
  const stamp = (stats: Stats | undefined): void => {
    if (count + 5 > numbers.length) {
      const grown = new Float64Array(numbers.length * 2);
      grown.set(numbers);
      numbers = grown;
    }
    if (stats === undefined) {
      numbers.fill(0, count, count + 5);
    } else {
      if (stats.mtimeMs > newest) newest = stats.mtimeMs;
      if (stats.ctimeMs > newest) newest = stats.ctimeMs;
      numbers[count] = stats.isDirectory() ? 2 : 1;
      numbers[count + 1] = stats.size;
      numbers[count + 2] = stats.mtimeMs;
      numbers[count + 3] = stats.ctimeMs;
      numbers[count + 4] = stats.ino;
    }
    count += 5;
  };
  const seen = new Set<string>();
  const walked = new Set<string>();
  const walk = (dir: string, stats: Stats | undefined): void => {
    walked.add(dir);
    let names: string[] | undefined;
    try {
      // Stat'ed before it is listed: an entry changed in between leaves a newer time than the one stamped.
      if (stats?.isDirectory()) names = readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
    } catch {
      // gone, or unreadable, since: stamped as absent
    }
    if (names === undefined) {
      text.push(`D ${dir} -`);
      return;
    }
    text.push(`D ${dir}`, names.join('\n'));
    stamp(stats);
    const below: [string, Stats][] = [];
    const inside = enter(dir);
    for (const name of names) {
      const entry = statOf(inside ? name : `${dir}${sep}${name}`);
      stamp(entry);
      if (entry === undefined) continue;
      if (!entry.isDirectory()) {
        present?.add(`${dir}${sep}${name}`);
        continue;
      }
      const id = `${entry.dev}:${entry.ino}`;
      if (seen.has(id)) continue; // a symlink loop, or one folder reached twice
      seen.add(id);
      below.push([`${dir}${sep}${name}`, entry]);
    }
    for (const [path, entry] of below) walk(path, entry);
  };
  for (const dir of dirs) {
    if (walked.has(dir)) continue;
    const stats = statOf(dir);
    if (stats?.isDirectory()) seen.add(`${stats.dev}:${stats.ino}`);
    walk(dir, stats);
  }
  for (const file of files) {
    text.push(`F ${file}`);
    const stats = statOf(file);
    stamp(stats);
    if (present && stats !== undefined && !stats.isDirectory()) present.add(file);
  }
  return { text: text.join('\n'), numbers: numbers.subarray(0, count), newest };
}

/** Whether a stamp may be kept by a load begun at `loadedAt`: every file and folder in it older by the margin. */
export function isOldEnough(stamp: InputStamp, loadedAt: number, marginMs = TRUST_MARGIN_MS): boolean {
  return stamp.newest < loadedAt - marginMs;
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // a dangling symlink or a loop: as absent
  }
}
