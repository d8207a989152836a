/**
 * The numbers an input stamp keeps of a file or folder (input-stamps.ts),
 * written into a reused array instead of a Stats object per file: kind (1
 * a file, 2 a folder), size, mtimeMs, ctimeMs, inode, device. False: the
 * path is absent (or a dangling symlink, a loop, unreadable).
 *
 * Two readers of the same numbers. `publicStat` is fs.statSync. `quickStat`,
 * for the bin (ls-answer-cache.ts), reads them from Node's own fs binding
 * (process.binding('fs'), what fs.statSync calls): on Node 20, fs.statSync
 * spends more than half of its time building the Stats object around them
 * (four Date objects, eighteen fields), 25 of 45 ms over a 10,000-model
 * project's files. The binding is internal, so it is used only where a
 * wrong reading cannot serve a stale answer: the bin compares what it reads
 * with a stamp the CLI took through fs.statSync, number for number, so
 * numbers read wrong (another layout, another Node) only ever miss; it is
 * checked against fs.statSync on one path before use, and where it is
 * missing, refused or different, `quickStat` is `publicStat`.
 */
import { statSync } from 'node:fs';

/** Reads a path's numbers into `out` (six of them); false when it is absent. */
export type StatReader = (path: string, out: Float64Array) => boolean;

export const publicStat: StatReader = (path, out) => {
  let stats;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch {
    return false; // a dangling symlink or a loop: as absent
  }
  if (stats === undefined) return false;
  out[0] = stats.isDirectory() ? 2 : 1;
  out[1] = stats.size;
  out[2] = stats.mtimeMs;
  out[3] = stats.ctimeMs;
  out[4] = stats.ino;
  out[5] = stats.dev;
  return true;
};

type BindingStat = (path: string, bigint: false, request: undefined, throwIfNoEntry: false) => Float64Array | undefined;

let quick: StatReader | undefined;

/** The binding's reader when it reads `probe` as fs.statSync does, else publicStat. */
export function quickStat(probe: string): StatReader {
  quick ??= bindingReader(probe) ?? publicStat;
  return quick;
}

function bindingReader(probe: string): StatReader | undefined {
  const binding = fsBinding();
  const stat = binding?.stat;
  if (typeof stat !== 'function') return undefined;
  const read: StatReader = (path, out) => {
    let values: Float64Array | undefined;
    try {
      values = (stat as BindingStat).call(binding, path, false, undefined, false);
    } catch {
      return false;
    }
    if (!(values instanceof Float64Array) || values.length < 18) return false;
    // dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, then seconds and nanoseconds of atime, mtime, ctime, birthtime.
    out[0] = (values[1]! & 0o170000) === 0o040000 ? 2 : 1;
    out[1] = values[8]!;
    out[2] = values[12]! * 1e3 + values[13]! / 1e6; // as Node's msFromTimeSpec
    out[3] = values[14]! * 1e3 + values[15]! / 1e6;
    out[4] = values[7]!;
    out[5] = values[0]!;
    return true;
  };
  const expected = new Float64Array(6);
  const got = new Float64Array(6);
  if (!publicStat(probe, expected) || !read(probe, got) || expected.some((n, i) => n !== got[i])) return undefined;
  return read;
}

/** process.binding('fs') without its deprecation warning (printed under --pending-deprecation); undefined where it is gone. */
function fsBinding(): Record<string, unknown> | undefined {
  const withBinding = process as unknown as { binding?: (name: string) => unknown };
  if (typeof withBinding.binding !== 'function') return undefined;
  const quiet = process.noDeprecation;
  process.noDeprecation = true;
  try {
    const binding = withBinding.binding('fs');
    return typeof binding === 'object' && binding !== null ? (binding as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  } finally {
    process.noDeprecation = quiet;
  }
}
