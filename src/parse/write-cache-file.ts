import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Write a cache file of target/ (the parse cache, the graph cache) through a
 * temporary file and a rename, so a concurrent reader never sees half a file.
 * Best effort: a read-only or full target/ only costs the next load its
 * speed, and no half-written temporary file is left behind.
 */
export function writeCacheFile(path: string, text: string | Uint8Array): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // there was no folder to write it in
    }
  }
}
