import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src/errors/project-error.js';
import { afterPublish, ArtifactWriteError, writeArtifact } from '../../../src/state/artifact-write-error.js';
import { writeFileAtomically } from '../../../src/state/write-file-atomically.js';

/** A disk that fills up half-way through the write. */
const fullDisk = (path: string, text: string) => {
  writeFileSync(path, text.slice(0, text.length / 2));
  throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' });
};

describe('writing artifacts', () => {
  it('a full disk leaves the previous file whole and no temp file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-artifact-'));
    const path = join(dir, 'target', 'run_results.json');
    writeFileAtomically(path, '{"old": true}\n');
    expect(() => writeFileAtomically(path, '{"new": "a longer text than before"}\n', fullDisk)).toThrow(/ENOSPC/);
    expect(readFileSync(path, 'utf8')).toBe('{"old": true}\n');
    expect(readdirSync(join(dir, 'target'))).toEqual(['run_results.json']);
  });

  it('a failure names the project-relative file and the reason without the absolute path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-artifact-'));
    let caught: unknown;
    try {
      writeArtifact(dir, join(dir, 'target', 'run_results.json'), '{}', fullDisk);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ArtifactWriteError);
    expect((caught as Error).message).toBe('writing target/run_results.json failed: ENOSPC: no space left on device');
  });

  it('after the publish, the message says the warehouse already holds the run (exit 2); other errors pass through', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-artifact-'));
    let caught: unknown;
    try {
      afterPublish(() => writeArtifact(dir, join(dir, 'target', 'manifest.json'), '{}', fullDisk));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProjectError);
    expect((caught as ProjectError).exitCode).toBe(2);
    expect((caught as Error).message).toBe('the run is over and what it built is committed to the warehouse; writing target/manifest.json failed: ENOSPC: no space left on device');
    const bug = new TypeError('a bug');
    expect(() => afterPublish(() => { throw bug; })).toThrow(bug);
    expect(afterPublish(() => 42)).toBe(42);
  });
});

describe('replacing an artifact', () => {
  it('the new text replaces the old, leaving neither a temp nor the old file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-artifact-'));
    const path = join(dir, 'target', 'run_results.json');
    writeFileAtomically(path, '{"run": 1}\n');
    writeFileAtomically(path, '{"run": 2}\n');
    expect(readFileSync(path, 'utf8')).toBe('{"run": 2}\n');
    expect(readdirSync(join(dir, 'target'))).toEqual(['run_results.json']);
  });

  it('a folder where the file should be fails the write and stays as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-artifact-'));
    const path = join(dir, 'target', 'run_results.json');
    mkdirSync(join(path, 'inside'), { recursive: true });
    expect(() => writeFileAtomically(path, '{}\n')).toThrow();
    expect(readdirSync(join(dir, 'target'))).toEqual(['run_results.json']);
    expect(readdirSync(path)).toEqual(['inside']);
  });
});
