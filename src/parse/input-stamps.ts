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
import { readdirSync } from 'node:fs';
import { isAbsolute, sep } from 'node:path';
import { publicStat, type StatReader } from './stat-numbers.js';

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
 * it as it is). `stat`: how files are stat'ed (stat-numbers.ts; default
 * fs.statSync). `fromInside`: each folder's entries are stat'ed by name
 * from inside it (process.chdir), which spares the kernel resolving the
 * whole path again for each of them (about a sixth of the walk's time); the
 * working directory is put back before this returns (if it cannot be, this
 * throws). The working directory is the process's, so only for a process
 * doing nothing else meanwhile (the bin).
 */
export function rawStamp(dirs: readonly string[], files: readonly string[], present?: Set<string>, options: { fromInside?: boolean; stat?: StatReader } = {}): RawStamp {
  // Paths relative to the working directory would mean another file once inside a folder: then from outside.
  const home = options.fromInside === true && dirs.every(isAbsolute) && files.every(isAbsolute) ? process.cwd() : undefined;
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
    return walkAndStamp(dirs, files, present, enter, options.stat ?? publicStat);
  } finally {
    if (moved) process.chdir(home!); // throws if it cannot: the caller must not go on elsewhere
  }
}

function walkAndStamp(dirs: readonly string[], files: readonly string[], present: Set<string> | undefined, enter: (dir: string) => boolean, stat: StatReader): RawStamp {
  // Paths and names as text; every stamp as five numbers (kind, size, mtimeMs, ctimeMs, inode), in walk order:
  // no string per file (formatting 30,000 times costs more than the stats).
  const text: string[] = [];
  let numbers = new Float64Array(5 * 1024);
  let count = 0;
  let newest = -Infinity;
  /** The last stat's numbers (stat-numbers.ts). */
  const read = new Float64Array(6);
  /** Stat `path` into `read` and stamp it; its kind (0: absent). */
  const stampOf = (path: string): number => {
    if (count + 5 > numbers.length) {
      const grown = new Float64Array(numbers.length * 2);
      grown.set(numbers);
      numbers = grown;
    }
    if (!stat(path, read)) {
      numbers.fill(0, count, count + 5);
      count += 5;
      return 0;
    }
    if (read[2]! > newest) newest = read[2]!;
    if (read[3]! > newest) newest = read[3]!;
    numbers[count] = read[0]!;
    numbers[count + 1] = read[1]!;
    numbers[count + 2] = read[2]!;
    numbers[count + 3] = read[3]!;
    numbers[count + 4] = read[4]!;
    count += 5;
    return read[0]!;
  };
  const seen = new Set<string>();
  const walked = new Set<string>();
  /** List and stamp the entries of `dir`, stat'ed and stamped already (`id`: its device and inode; undefined: absent, or no folder). */
  const walk = (dir: string, id: string | undefined): void => {
    walked.add(dir);
    let names: string[] | undefined;
    try {
      // Stat'ed before it is listed: an entry changed in between leaves a newer time than the one stamped.
      if (id !== undefined) names = readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
    } catch {
      // gone, or unreadable, since: stamped as absent
    }
    if (names === undefined) {
      text.push(`D ${dir} -`);
      return;
    }
    text.push(`D ${dir}`, names.join('\n'));
    const below: [string, string][] = [];
    const inside = enter(dir);
    for (const name of names) {
      const kind = stampOf(inside ? name : `${dir}${sep}${name}`);
      if (kind === 1) present?.add(`${dir}${sep}${name}`);
      if (kind !== 2) continue;
      const folder = `${read[5]}:${read[4]}`;
      if (seen.has(folder)) continue; // a symlink loop, or one folder reached twice
      seen.add(folder);
      below.push([`${dir}${sep}${name}`, folder]);
    }
    for (const [path, folder] of below) walk(path, folder);
  };
  for (const dir of dirs) {
    if (walked.has(dir)) continue;
    const id = stampOf(dir) === 2 ? `${read[5]}:${read[4]}` : undefined;
    if (id !== undefined) seen.add(id);
    walk(dir, id);
  }
  for (const file of files) {
    text.push(`F ${file}`);
    if (stampOf(file) === 1) present?.add(file);
  }
  return { text: text.join('\n'), numbers: numbers.subarray(0, count), newest };
}

/** Whether a stamp may be kept by a load begun at `loadedAt`: every file and folder in it older by the margin. */
export function isOldEnough(stamp: InputStamp, loadedAt: number, marginMs = TRUST_MARGIN_MS): boolean {
  return stamp.newest < loadedAt - marginMs;
}
