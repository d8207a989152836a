import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A snapshot's pre_hook / post_hook, as dbt's snapshot materialization runs them (run_hooks, as the
 * table one): `transaction: false` pre-hooks before its transaction, the others first inside it;
 * post-hooks after the snapshot is built or merged (reading `{{ this }}` as just written), inside the
 * transaction, then the `transaction: false` ones after the commit. A hook whose template fails fails
 * the snapshot (E220), its transaction rolled back.
 */
const SEED = 'id,name,updated_at\n1,ann,2024-01-01\n2,bob,2024-01-01\n';
const AUDIT = '{{ target.schema }}.snap_audit';
const block = (hooks: string) => `{% snapshot snap %}
{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at', ${hooks}) }}
select * from {{ ref('seed') }}
{% endsnapshot %}
`;

describeEachEngine('snapshot hooks', (engine) => {
  it('runs pre-hooks before the build and post-hooks after it, in and out of its transaction, rendered as they run', () => {
    const p = conformanceProject({
      'seeds/seed.csv': SEED,
      'snapshots/snap.sql': block(`pre_hook=[{'sql': "create table if not exists ${AUDIT} (run integer, event varchar(20), n integer)", 'transaction': false},
  "insert into ${AUDIT} select coalesce(max(run), 0) + 1, 'pre', 0 from ${AUDIT}"],
post_hook=["insert into ${AUDIT} select max(run), 'post', (select count(*) from {{ this }}) from ${AUDIT}",
  {'sql': "insert into ${AUDIT} select max(run), 'after commit', (select count(*) from {{ this }} where dbt_valid_to is null) from ${AUDIT}", 'transaction': false}]`),
    }, 'snaphooks', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    const first = p.dbt(['snapshot']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    p.exec("update seed set name = 'bobby', updated_at = '2024-02-01' where id = 2");
    const second = p.dbt(['snapshot']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(p.rows('snap_audit', 'run, n, event')).toEqual([
      { run: 1, event: 'pre', n: 0 }, { run: 1, event: 'after commit', n: 2 }, { run: 1, event: 'post', n: 2 },
      // The second run's post-hook sees the closed version and the new one (3 rows), 2 of them current.
      { run: 2, event: 'pre', n: 0 }, { run: 2, event: 'after commit', n: 2 }, { run: 2, event: 'post', n: 3 },
    ]);
  });

  it('fails the snapshot when a hook template fails, naming the hook, and rolls its build back (E220)', () => {
    const p = conformanceProject({
      'seeds/seed.csv': SEED,
      'snapshots/snap.sql': block(`post_hook="{{ exceptions.raise_compiler_error('no snapshot of ' ~ this.identifier ~ ' today') }}"`),
    }, 'snaphooks', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    const out = p.dbt(['snapshot']);
    expect(out.code).toBe(1);
    expect(out.stdout + out.stderr).toContain('no snapshot of snap today');
    expect(out.stdout + out.stderr).toContain("in post_hook[0] of snapshot 'snap', rendered as it ran");
    expect(p.relationType('snap')).toBeUndefined();
  });
});
