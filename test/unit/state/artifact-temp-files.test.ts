import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactTempFiles } from '../../../src/state/artifact-temp-files.js';
import { writeFileAtomically } from '../../../src/state/write-file-atomically.js';

function target(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'mini-dbt-temp-ahead-')), 'target');
  mkdirSync(dir);
  return dir;
}

describe('temporary files created ahead', () => {
  it('the write takes the file created ahead (its inode becomes the artifact) and leaves nothing else behind', async () => {
    const dir = target();
    const path = join(dir, 'run_results.json');
    writeFileAtomically(path, '{"run": 1}\n');
    const temps = new ArtifactTempFiles();
    temps.prepare(path);
    await temps.ready();
    const [ahead] = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
    expect(ahead).toMatch(/^run_results\.json\.\d+\.\d+\.tmp$/);
    const inode = statSync(join(dir, ahead!)).ino;
    writeFileAtomically(path, '{"run": 2}\n');
    await temps.discard();
    expect(readFileSync(path, 'utf8')).toBe('{"run": 2}\n');
    expect(statSync(path).ino).toBe(inode);
    expect(readdirSync(dir)).toEqual(['run_results.json']);
  });

  it('a file no write took is removed at the end; a second run in the same process gets its own', async () => {
    const dir = target();
    const path = join(dir, 'manifest.json');
    const first = new ArtifactTempFiles();
    const second = new ArtifactTempFiles();
    first.prepare(path);
    second.prepare(path);
    await Promise.all([first.ready(), second.ready()]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toHaveLength(2);
    writeFileAtomically(path, '{}\n');
    await first.discard();
    await second.discard();
    expect(readdirSync(dir)).toEqual(['manifest.json']);
  });

  it('a folder that is not there: nothing is created ahead, and the write makes the folder as before', async () => {
    const dir = join(target(), 'missing');
    const path = join(dir, 'run_results.json');
    const temps = new ArtifactTempFiles();
    temps.prepare(path);
    await temps.ready();
    expect(existsSync(dir)).toBe(false);
    writeFileAtomically(path, '{}\n');
    await temps.discard();
    expect(readdirSync(dir)).toEqual(['run_results.json']);
  });
});
