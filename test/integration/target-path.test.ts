import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** dbt's --target-path and DBT_TARGET_PATH: where artifacts, compiled SQL and the caches go for this invocation. */
describe('--target-path and DBT_TARGET_PATH', () => {
  it('the flag puts every artifact under the given folder, and nothing under target/', () => {
    const dir = exampleProject();
    expect(runCli(['seed', '--target-path', 'ci_target', '--project-dir', dir]).code).toBe(0);
    const r = runCli(['run', '--select', 'daily_revenue', '--target-path', 'ci_target', '--project-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    for (const file of ['manifest.json', 'run_results.json', 'compiled/brightcart/models/marts/daily_revenue.sql', 'run/brightcart/models/marts/daily_revenue.sql']) {
      expect(existsSync(join(dir, 'ci_target', file)), file).toBe(true);
    }
    expect(existsSync(join(dir, 'target'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'ci_target/run_results.json'), 'utf8')).results).toHaveLength(1);
    // clean removes the same folder when the project lists no clean-targets.
    expect(runCli(['clean', '--target-path', 'ci_target', '--project-dir', dir]).code).toBe(0);
    expect(existsSync(join(dir, 'ci_target'))).toBe(false);
  });

  it('an absolute path is used as it is (dbt joins paths as Python does)', () => {
    const dir = exampleProject();
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'mini-dbt-target-')), 'ci', 'target');
    const r = runCli(['compile', '--select', 'monthly_revenue', '--target-path', elsewhere, '--project-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(elsewhere, 'compiled/brightcart/models/marts/monthly_revenue.sql'))).toBe(true);
    expect(existsSync(join(elsewhere, 'partial_parse.json'))).toBe(true);
    // compile writes manifest.json, as dbt's compile does.
    expect(JSON.parse(readFileSync(join(elsewhere, 'manifest.json'), 'utf8')).nodes).toHaveProperty(['model.brightcart.monthly_revenue']);
    expect(existsSync(join(dir, 'target'))).toBe(false);
  });

  it('DBT_TARGET_PATH does the same, and the flag beats it', () => {
    const dir = exampleProject();
    expect(runCli(['compile', '--select', 'monthly_revenue', '--project-dir', dir], { env: { DBT_TARGET_PATH: 'from_env' } }).code).toBe(0);
    expect(existsSync(join(dir, 'from_env/compiled/brightcart/models/marts/monthly_revenue.sql'))).toBe(true);
    expect(runCli(['compile', '--select', 'monthly_revenue', '--target-path', 'from_flag', '--project-dir', dir], { env: { DBT_TARGET_PATH: 'from_env_2' } }).code).toBe(0);
    expect(existsSync(join(dir, 'from_flag/compiled/brightcart/models/marts/monthly_revenue.sql'))).toBe(true);
    expect(existsSync(join(dir, 'from_env_2'))).toBe(false);
    expect(existsSync(join(dir, 'target'))).toBe(false);
  });
});
