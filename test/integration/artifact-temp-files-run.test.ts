import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSession, run } from '../../src/index.js';
import { writeProject } from '../support/example-project.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every file under target/, relative to it. */
const targetFiles = (): string[] => readdirSync(join(dir, 'target'), { recursive: true }).map(String).filter((f) => f.endsWith('.sql') || f.endsWith('.json') || f.endsWith('.tmp') || f.endsWith('.old')).sort();

describe("a run's artifacts, written through temporary files created while it runs", () => {
  it('each run leaves its own texts (compiled SQL, run script, run_results, manifest) and no temporary file', async () => {
    dir = writeProject({
      'project.yml': 'name: p\ndatabase: w.db\n',
      'models/m.sql': "{{ config(materialized='table') }}select {{ var('n', 1) }} as n",
    });
    const session = loadSession({ projectDir: dir });
    for (const n of [1, 2, 2, 3]) {
      const result = await run({ session, vars: { n } });
      expect(result.exitCode).toBe(0);
      expect(readFileSync(join(dir, 'target', 'compiled', 'p', 'models', 'm.sql'), 'utf8')).toBe(`select ${n} as n\n`);
      expect(readFileSync(join(dir, 'target', 'run', 'p', 'models', 'm.sql'), 'utf8')).toContain(`select ${n} as n`);
      expect(JSON.parse(readFileSync(join(dir, 'target', 'run_results.json'), 'utf8')).metadata.invocation_id).toBe(result.invocationId);
      expect(JSON.parse(readFileSync(join(dir, 'target', 'manifest.json'), 'utf8')).metadata.invocation_id).toBe(result.invocationId);
      expect(targetFiles()).toEqual(['compiled/p/models/m.sql', 'manifest.json', 'partial_parse.json', 'run/p/models/m.sql', 'run_results.json']);
    }
  });
});
