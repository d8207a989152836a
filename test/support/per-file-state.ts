import { afterAll, vi } from 'vitest';

/**
 * vitest.config.ts runs test files without isolation (one module graph per
 * worker, reused file after file: most of the suite's import time saved).
 * What a file changes in the worker's global state must then not reach the
 * next file: the environment variables it set (they would also reach every
 * CLI the next file spawns) and the spies it left on shared prototypes.
 */
const env = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  vi.restoreAllMocks();
});
