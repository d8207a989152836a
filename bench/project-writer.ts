import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A writer of files under `dir` (its folders made as needed), for the generated bench projects. */
export function projectWriter(dir: string): (path: string, text: string) => void {
  return (path, text) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
}
