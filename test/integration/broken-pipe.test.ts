import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CLI, exampleProject } from '../support/example-project.js';
import { cliEnv } from '../support/run-cli.js';

describe('output piped into a reader that stops early (| head -1)', () => {
  it('drops the rest of the output without a stack and still finishes the run', () => {
    const dir = exampleProject();
    const out = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" build --project-dir "${dir}" 2>"${dir}/stderr.txt" | head -1; cat "${dir}/stderr.txt"; echo "exit=\${PIPESTATUS[0]}"`], { encoding: 'utf8', env: cliEnv() });
    expect(out.stdout).not.toMatch(/EPIPE|\n\s+at /);
    expect(out.stdout).toMatch(/exit=0/);
    const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
    try {
      expect(db.prepare('select count(*) from monthly_revenue').pluck().get()).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
