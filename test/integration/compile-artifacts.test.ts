import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DBT_VERSION, MINI_DBT_VERSION } from '../../src/invocation/tool-version.js';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** dbt's compile writes manifest.json and run_results.json (each compiled node a success with its code). */
describe('compile artifacts', () => {
  it('run_results.json lists each compiled model as a success with its compiled code; a retry after it has nothing to do', () => {
    const dir = exampleProject();
    const r = runCli(['compile', '--select', 'monthly_revenue', '--project-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8'));
    expect(results.args.which).toBe('compile');
    expect(results.results).toHaveLength(1);
    expect(results.results[0]).toMatchObject({ unique_id: 'model.brightcart.monthly_revenue', status: 'success', compiled: true, relation_name: '"main"."monthly_revenue"' });
    expect(results.results[0].compiled_code).toContain('from "main"."daily_revenue"');
    const manifest = JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8'));
    expect(manifest.metadata.invocation_id).toBe(results.metadata.invocation_id);
    // Both name the dbt version mini-dbt behaves as (what tools reading dbt's artifacts check) and mini-dbt's own.
    for (const m of [manifest.metadata, results.metadata]) expect(m).toMatchObject({ dbt_version: DBT_VERSION, mini_dbt_version: MINI_DBT_VERSION });
    const retry = runCli(['retry', '--project-dir', dir]);
    expect(retry.code, retry.stderr).toBe(0);
  });
});
