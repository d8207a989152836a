/**
 * `replay --keep <file>`: where the simulated warehouse is saved, checked
 * before the replay starts, so hours of simulation never end in "unable to
 * open database". The file must be new; missing folders on the way are
 * created (as `--keep out/night.db` reads: "put it there"), but a file where
 * a folder should be is refused.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';

/** The absolute path to save to, after checking it; call `prepare` right before writing it. */
export function checkKeepPath(given: string, liveDatabase: string): { readonly path: string; prepare(): void } {
  const path = resolve(given);
  if (path === resolve(liveDatabase)) throw new ProjectError(`--keep ${given}: the file exists (it is the live warehouse); name a new file`);
  if (existsSync(path)) {
    const what = statSync(path).isDirectory() ? `is a folder; name a new file in it, e.g. --keep ${given.replace(/\/+$/, '')}/replay.db` : 'the file exists; name a new file';
    throw new ProjectError(`--keep ${given}: ${what}`);
  }
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new ProjectError(`--keep ${given}: ${dir} is a file, not a folder`);
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return { path, prepare: () => mkdirSync(dirname(path), { recursive: true }) };
}
