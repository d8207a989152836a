import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { ProjectError } from '../errors/project-error.js';
import { causeOf } from './hub-client.js';

/**
 * Download a package's .tar.gz and unpack it into `into` (a new folder). Returns the package's
 * folder: the archive's single top folder (`dbt-utils-1.3.0/` in the hub's GitHub archives), or
 * `into` itself when the archive has its files at the top.
 */
export async function downloadAndUnpack(url: string, into: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(300_000) });
  } catch (err) {
    throw new ProjectError(`could not download ${url}: ${causeOf(err)}`, { hint: 'check the network connection; installed packages were left as they were' });
  }
  if (!response.ok || !response.body) throw new ProjectError(`could not download ${url}: HTTP ${response.status} ${response.statusText}`.trim());
  mkdirSync(into, { recursive: true });
  try {
    // tar refuses absolute paths and '..' in member names, so nothing lands outside `into`.
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), tar.x({ cwd: into, strict: true }));
  } catch (err) {
    throw new ProjectError(`could not unpack ${url}: ${err instanceof Error ? err.message : String(err)} (is it a .tar.gz archive?)`);
  }
  const top = readdirSync(into);
  return top.length === 1 && statSync(join(into, top[0]!)).isDirectory() ? join(into, top[0]!) : into;
}
