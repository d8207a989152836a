import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): snapshots with the timestamp strategy, modelled on dbt-tests-adapter's
 * basic/test_snapshot_timestamp.py (a snapshot of one seed, then of a larger one, then of changed
 * timestamps: 10, 20, 30 rows) and simple_snapshot's expected columns (dbt_scd_id = md5 of the key and
 * updated_at joined by '|', dbt_valid_from = dbt_updated_at = updated_at, dbt_valid_to NULL while current).
 */

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const rows = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => `${from + i},name_${from + i},2024-01-${String(((from + i) % 28) + 1).padStart(2, '0')} 10:00:00`).join('\n');
const BASE = `id,name,updated_at\n${rows(10)}\n`;
const ADDED = `id,name,updated_at\n${rows(20)}\n`;

const SNAPSHOT = `{% snapshot ts_snapshot %}
{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at') }}
select * from {{ ref(var('seed_name', 'base')) }}
{% endsnapshot %}
`;

function project(engine: EngineName): ConformanceProject {
  return conformanceProject({ 'seeds/base.csv': BASE, 'seeds/added.csv': ADDED, 'snapshots/ts_snapshot.sql': SNAPSHOT }, 'conformance', { engine });
}

describeEachEngine('snapshot, timestamp strategy (dbt basic/test_snapshot_timestamp.py)', (engine) => {
  it('first run: every row current, with dbt\'s meta column values', () => {
    const p = project(engine);
    expect(p.dbt(['seed']).code).toBe(0);
    const out = p.dbt(['snapshot']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.statuses['snapshot.conformance.ts_snapshot']).toBe('success');
    expect(out.stdout).toContain('ts_snapshot: new 10, changed 0, deleted 0, unchanged 0');
    const snap = p.rows('ts_snapshot', 'id');
    expect(snap).toHaveLength(10);
    expect(p.columns('ts_snapshot')).toEqual(['id', 'name', 'updated_at', 'dbt_scd_id', 'dbt_updated_at', 'dbt_valid_from', 'dbt_valid_to']);
    for (const r of snap) {
      expect(r.dbt_scd_id).toBe(md5(`${r.id}|${r.updated_at}`));
      expect(r.dbt_updated_at).toBe(r.updated_at);
      expect(r.dbt_valid_from).toBe(r.updated_at);
      expect(r.dbt_valid_to).toBeNull();
    }
  });

  it('new rows, then changed timestamps: 10, 20, 30 rows; the old versions closed at the new updated_at', () => {
    const p = project(engine);
    p.dbt(['seed']);
    p.dbt(['snapshot']);
    const added = p.dbt(['snapshot', '--vars', 'seed_name: added']);
    expect(added.code, added.stdout + added.stderr).toBe(0);
    expect(added.stdout).toContain('ts_snapshot: new 10, changed 0, deleted 0, unchanged 10');
    expect(p.count('ts_snapshot')).toBe(20);
    // updated_at is a timestamp on PostgreSQL (dbt-postgres's seed type for YYYY-MM-DD HH:MM:SS), text on SQLite.
    const later = engine === 'postgres' ? "updated_at + interval '1 hour'" : "replace(updated_at, '10:00:00', '11:00:00')";
    p.exec(`update added set updated_at = ${later}, name = name || '_v2' where id > 10`);
    const changed = p.dbt(['snapshot', '--vars', 'seed_name: added']);
    expect(changed.stdout).toContain('ts_snapshot: new 0, changed 10, deleted 0, unchanged 10');
    expect(p.count('ts_snapshot')).toBe(30);
    const id11 = p.rows('ts_snapshot', 'dbt_valid_from').filter((r) => r.id === 11);
    expect(id11.map((r) => r.name)).toEqual(['name_11', 'name_11_v2']);
    expect(id11[0]!.dbt_valid_to).toBe(id11[1]!.updated_at);
    expect(id11[1]!.dbt_valid_to).toBeNull();
    expect(id11[1]!.dbt_scd_id).toBe(md5(`11|${id11[1]!.updated_at}`));
  });

  it('a rerun without source changes changes nothing; each run has one node-run row in the ledger', () => {
    const p = project(engine);
    p.dbt(['seed']);
    p.dbt(['snapshot']);
    const before = p.rows('ts_snapshot');
    const again = p.dbt(['snapshot']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('ts_snapshot: new 0, changed 0, deleted 0, unchanged 10');
    expect(p.rows('ts_snapshot')).toEqual(before);
    const ledger = p.rows('_mini_dbt_node_runs', 'id').filter((r) => r.unique_id === 'snapshot.conformance.ts_snapshot');
    expect(ledger.map((r) => [r.resource_type, r.mode, r.rows_inserted, r.status])).toEqual([['snapshot', 'full', 10, 'success'], ['snapshot', 'snapshot', 0, 'success']]);
  });

  it('a deleted source row stays current by default (hard_deletes: ignore)', () => {
    const p = project(engine);
    p.dbt(['seed']);
    p.dbt(['snapshot']);
    p.exec('delete from base where id = 3');
    const out = p.dbt(['snapshot']);
    expect(out.stdout).toContain('ts_snapshot: new 0, changed 0, deleted 0, unchanged 10');
    expect(p.rows('ts_snapshot').filter((r) => r.dbt_valid_to === null)).toHaveLength(10);
  });

  it('a unique_key list: dbt_scd_id hashes every key column and updated_at', () => {
    const p = conformanceProject({
      'seeds/base.csv': 'id,region,updated_at\n1,eu,2024-01-01\n1,us,2024-01-01\n',
      'snapshots/s.sql': "{% snapshot multi %}{{ config(unique_key=['id', 'region'], strategy='timestamp', updated_at='updated_at') }} select * from {{ ref('base') }} {% endsnapshot %}",
    }, 'conformance', { engine });
    p.dbt(['seed']);
    expect(p.dbt(['snapshot']).code).toBe(0);
    expect(p.rows('multi', 'region').map((r) => r.dbt_scd_id)).toEqual([md5('1|eu|2024-01-01'), md5('1|us|2024-01-01')]);
    p.exec("update base set updated_at = '2024-02-01' where region = 'us'");
    p.dbt(['snapshot']);
    expect(p.rows('multi', 'region, dbt_valid_from').map((r) => [r.region, r.dbt_valid_to])).toEqual([['eu', null], ['us', '2024-02-01'], ['us', null]]);
  });
});
