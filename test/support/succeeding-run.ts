import { expect } from 'vitest';
import { run, type RunOptions, type RunResult } from '../../src/api/run.js';

/**
 * A command a case only needs to succeed (loading seeds, building what the
 * checked command reads), run in process through the API the CLI calls,
 * instead of spawning the CLI (some 100 ms on SQLite, twice that on
 * PostgreSQL): every node must succeed (a unit test pass) and the exit code
 * be 0, with the failures named when not. Commands whose exit code, output
 * or artifacts a case checks still spawn the CLI.
 */
export async function succeedingRun(projectDir: string, options: Partial<RunOptions> = {}): Promise<RunResult> {
  const result = await run({ projectDir, writeArtifacts: false, ...options });
  expect(result.results.filter((r) => r.status !== 'success' && r.status !== 'pass').map((r) => `${r.name}: ${r.status} ${r.message}`)).toEqual([]);
  expect(result.exitCode).toBe(0);
  return result;
}
