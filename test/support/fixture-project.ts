import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './example-project.js';

/** Copy test/fixtures/projects/<name> into a fresh temp dir; returns the project dir. */
export function fixtureProject(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mini-dbt-${name}-`));
  cpSync(join(REPO_ROOT, 'test/fixtures/projects', name), dir, { recursive: true });
  return dir;
}
