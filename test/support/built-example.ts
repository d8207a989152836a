import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { exampleProject } from './example-project.js';
import { runCli } from './run-cli.js';

/**
 * Build the example once for a test file (in its beforeAll); returns a
 * function that gives a fresh copy of the project with that built warehouse.
 */
export function builtExample(): () => string {
  let base = '';
  beforeAll(() => {
    base = exampleProject();
    expect(runCli(['build', '--project-dir', base]).code).toBe(0);
  });
  return () => {
    const dir = exampleProject();
    copyFileSync(join(base, 'warehouse.db'), join(dir, 'warehouse.db'));
    return dir;
  };
}
