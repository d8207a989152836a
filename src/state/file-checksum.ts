import { hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** dbt's FileHash in the manifest: `{name: 'sha256', checksum}` of a file's text. */
export interface FileChecksum {
  readonly name: 'sha256' | 'path';
  readonly checksum: string;
}

/** The largest seed dbt hashes; a larger one is identified by its path (dbt warns that it cannot tell if it changed). */
const MAXIMUM_SEED_SIZE = 1024 * 1024;

/** A model's or snapshot's checksum: the SHA-256 of its file's text. */
export function textChecksum(text: string): FileChecksum {
  return { name: 'sha256', checksum: hash('sha256', text, 'hex') };
}

/** A seed's, as dbt computes it: the SHA-256 of the CSV up to 1 MiB, else `{name: 'path'}` with its project path. */
export function seedChecksum(absPath: string, path: string): FileChecksum {
  try {
    if (statSync(absPath).size > MAXIMUM_SEED_SIZE) return { name: 'path', checksum: path };
    return { name: 'sha256', checksum: hash('sha256', readFileSync(absPath), 'hex') };
  } catch {
    return { name: 'path', checksum: path };
  }
}
