/**
 * Write a file through a temporary sibling and a rename: a reader never sees
 * half a file, and a write that fails (a full disk, a folder that is a file)
 * leaves the previous file as it was and no temporary file behind.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type FileWriter = (path: string, text: string) => void;

/** `writer` is the file system's; tests pass one that fails part-way, as a full disk does. */
export function writeFileAtomically(path: string, text: string, writer: FileWriter = writeFileSync): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writer(temp, text);
    renameSync(temp, path);
  } catch (err) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // nothing was created
    }
    throw err;
  }
}
