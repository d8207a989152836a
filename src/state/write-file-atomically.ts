/**
 * Write a file through a temporary sibling and renames: a reader never sees
 * half a file, and a write that fails (a full disk, a folder that is a file)
 * leaves the previous file as it was and no temporary file behind.
 *
 * The previous file is first moved aside, then the new one moved in, and the
 * old one removed, rather than renaming the new one over it: a rename that
 * replaces a file makes ext4 (auto_da_alloc) start writing the new file out
 * before the rename returns, 0.1 ms on a quiet disk and several on a busy
 * one, every run (run_results.json). Neither of these renames replaces a
 * file. A reader in between (a few microseconds) finds no file, as before a
 * first run; the artifacts' readers say so and the next run writes it again.
 * What it gives up is what dbt never had (it writes its artifacts in place):
 * after a power cut, a file written just before may be empty.
 */
import { lstatSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type FileWriter = (path: string, text: string) => void;

/** `writer` is the file system's; tests pass one that fails part-way, as a full disk does. */
export function writeFileAtomically(path: string, text: string, writer: FileWriter = writeFileSync): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    try {
      writer(temp, text);
    } catch (err) {
      // The folder is made only when missing (a first write): one system call fewer on every other.
      if ((err as { code?: unknown }).code !== 'ENOENT') throw err;
      mkdirSync(dirname(path), { recursive: true });
      writer(temp, text);
    }
  } catch (err) {
    removeQuietly(temp);
    throw err;
  }
  const aside = `${path}.${process.pid}.old`;
  // Only a file is moved aside (a folder in the way fails the rename below, as it always did).
  let moved = lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === false;
  try {
    if (moved) renameSync(path, aside);
  } catch (err) {
    // Gone since (another process writing the same artifact moved it): nothing to move aside.
    if ((err as { code?: unknown }).code === 'ENOENT') moved = false;
    else {
      removeQuietly(temp);
      throw err;
    }
  }
  try {
    renameSync(temp, path);
  } catch (err) {
    removeQuietly(temp);
    if (moved) renameSync(aside, path);
    throw err;
  }
  if (moved) removeQuietly(aside);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // nothing was created, or it is gone already
  }
}
