import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';
import { runCli } from '../support/run-cli.js';

/**
 * Bad snapshot input (issue 15): one clear message naming the file and line, and nothing changed.
 * A config dbt refuses at parse time stops the command (exit 2); a column the query does not return
 * fails that snapshot when it runs (exit 1), as in dbt, and leaves its table as it was.
 */

const SEED = 'id,status,updated_at\n1,new,2024-01-01\n2,new,2024-01-01\n';
const block = (config: string) => `{% snapshot snap %}\n{{ config(${config}) }}\nselect * from {{ ref('seed') }}\n{% endsnapshot %}\n`;

describeEachEngine('snapshot bad input', (engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  it('no unique_key: exit 2 before anything runs, the file and line named, no table', () => {
    const p = onEngine({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': block("strategy='timestamp', updated_at='updated_at'") });
    const out = p.dbt(['build']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("snapshots/snap.sql:2: snapshot 'snap': unique_key is required");
    expect(out.stderr).not.toMatch(/\n\s+at /);
    expect(p.relationType('seed')).toBeUndefined();
    expect(p.relationType('snap')).toBeUndefined();
  });

  it('timestamp strategy without updated_at: exit 2', () => {
    const p = onEngine({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': block("unique_key='id', strategy='timestamp'") });
    const out = p.dbt(['snapshot']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("snapshots/snap.sql:2: snapshot 'snap': strategy 'timestamp' needs updated_at");
  });

  it('check_cols naming a missing column: that snapshot fails (exit 1), its table unchanged, the rest of the build runs', () => {
    const p = onEngine({
      'seeds/seed.csv': SEED,
      'snapshots/snap.sql': block("unique_key='id', strategy='check', check_cols=['status']"),
      'models/other.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('seed') }}\n",
    });
    expect(p.dbt(['build']).code).toBe(0);
    const before = p.rows('snap');
    p.exec("update seed set status = 'shipped'");
    p.write('snapshots/snap.sql', block("unique_key='id', strategy='check', check_cols=['stauts']"));
    const out = p.dbt(['snapshot']);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("snapshots/snap.sql:2: snapshot 'snap': check_cols names column 'stauts', which its query does not return; its columns: id, status, updated_at. Did you mean 'status'?");
    expect(out.statuses['snapshot.conformance.snap']).toBe('error');
    expect(p.rows('snap')).toEqual(before);
    const ledger = p.rows('_mini_dbt_node_runs', 'id').filter((r) => r.unique_id === 'snapshot.conformance.snap');
    expect(ledger.map((r) => r.status)).toEqual(['success', 'error']);
    // Fixed, `retry` reruns the failed snapshot (and only it).
    p.write('snapshots/snap.sql', block("unique_key='id', strategy='check', check_cols=['status']"));
    // (runCli: the harness's dbt() removes run_results.json first, which retry reads.)
    const retry = runCli(['retry', '--project-dir', p.dir]);
    expect(retry.code, retry.stdout + retry.stderr).toBe(0);
    expect(retry.stdout).toContain('snap: new 0, changed 2, deleted 0, unchanged 0');
    expect(p.count('snap')).toBe(4);
  });

  it('a {% snapshot %} without {% endsnapshot %}: exit 2, the tag\'s line', () => {
    const p = onEngine({ 'seeds/seed.csv': SEED, 'snapshots/snap.sql': "\n{% snapshot snap %}\nselect 1 as id\n" });
    const out = p.dbt(['ls']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('snapshots/snap.sql:2: a {% snapshot %} block needs a name and an {% endsnapshot %}');
  });
});
