import { afterAll, vi } from 'vitest';
import { useTargetEngine } from '../../src/engine/current-engine.js';
import { FILE_TARGET } from '../../src/project/target.js';

/**
 * vitest.config.ts runs test files without isolation (one module graph per
 * worker, reused file after file: most of the suite's import time saved).
 * What a file changes in the worker's global state must then not reach the
 * next file: the environment variables it set (they would also reach every
 * CLI the next file spawns), the spies it left on shared prototypes, and the
 * engine a PostgreSQL target chose (the next file starts on SQLite).
 */
const env = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  vi.restoreAllMocks();
  useTargetEngine(FILE_TARGET);
});
