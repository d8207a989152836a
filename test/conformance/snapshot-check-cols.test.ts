import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): the check strategy, modelled on dbt-tests-adapter's
 * basic/test_snapshot_check_cols.py: three snapshots of one seed (check_cols 'all', ['some_date'],
 * ['name']); 10 rows, 20 after the larger seed, then a timestamp change (all and date see it: 30,
 * name does not: 20), then a name change (all and name see it: 40 and 30, date does not: 30).
 * dbt_valid_from = dbt_updated_at = the run's time; dbt_scd_id = md5(key|that time).
 */

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const rows = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1},name_${i + 1},2024-01-${String(i + 1).padStart(2, '0')}`).join('\n');
const snapshot = (name: string, cols: string) =>
  `{% snapshot ${name} %}\n{{ config(unique_key='id', strategy='check', check_cols=${cols}) }}\nselect * from {{ ref(var('seed_name', 'base')) }}\n{% endsnapshot %}\n`;

function project(engine: EngineName): ConformanceProject {
  return conformanceProject({
    'seeds/base.csv': `id,name,some_date\n${rows(10)}\n`,
    'seeds/added.csv': `id,name,some_date\n${rows(20)}\n`,
    'snapshots/cc_all_snapshot.sql': snapshot('cc_all_snapshot', "'all'"),
    'snapshots/cc_date_snapshot.sql': snapshot('cc_date_snapshot', "['some_date']"),
    'snapshots/cc_name_snapshot.sql': snapshot('cc_name_snapshot', "['name']"),
  }, 'conformance', { engine });
}

describeEachEngine('snapshot, check strategy (dbt basic/test_snapshot_check_cols.py)', (engine) => {
  it('check_cols all, a list, and changes each one sees: 10, 20, 30/30/20, 40/30/30 rows', () => {
    const p = project(engine);
    expect(p.dbt(['seed']).code).toBe(0);
    const first = p.dbt(['snapshot']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const counts = () => ['cc_all_snapshot', 'cc_date_snapshot', 'cc_name_snapshot'].map((s) => p.count(s));
    expect(counts()).toEqual([10, 10, 10]);
    expect(p.dbt(['snapshot', '--vars', 'seed_name: added']).code).toBe(0);
    expect(counts()).toEqual([20, 20, 20]);
    // some_date is a date on PostgreSQL (dbt-postgres's seed type for YYYY-MM-DD), text on SQLite.
    p.exec(`update added set some_date = ${engine === 'postgres' ? 'some_date + 1' : "some_date || ' 01:00:00'"} where id > 10 and id < 21`);
    const dates = p.dbt(['snapshot', '--vars', 'seed_name: added']);
    expect(dates.stdout).toContain('cc_name_snapshot: new 0, changed 0, deleted 0, unchanged 20');
    expect(dates.stdout).toContain('cc_date_snapshot: new 0, changed 10, deleted 0, unchanged 10');
    expect(counts()).toEqual([30, 30, 20]);
    p.exec("update added set name = name || '_updated' where id < 11");
    expect(p.dbt(['snapshot', '--vars', 'seed_name: added']).code).toBe(0);
    expect(counts()).toEqual([40, 30, 30]);
  });

  it("dbt_valid_from and dbt_updated_at are the run's time; dbt_scd_id is md5(key|time); a rerun changes nothing", () => {
    const p = project(engine);
    p.dbt(['seed']);
    p.dbt(['snapshot', '-s', 'cc_name_snapshot']);
    const snap = p.rows('cc_name_snapshot', 'id');
    for (const r of snap) {
      expect(r.dbt_valid_from).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(r.dbt_updated_at).toBe(r.dbt_valid_from);
      expect(r.dbt_valid_to).toBeNull();
      expect(r.dbt_scd_id).toBe(md5(`${r.id}|${r.dbt_valid_from}`));
    }
    const again = p.dbt(['snapshot', '-s', 'cc_name_snapshot']);
    expect(again.stdout).toContain('cc_name_snapshot: new 0, changed 0, deleted 0, unchanged 10');
    expect(p.rows('cc_name_snapshot', 'id')).toEqual(snap);
    expect(p.relationType('cc_all_snapshot')).toBeUndefined();
  });

  it('a changed row: the old version closed at the new version\'s dbt_valid_from', () => {
    const p = project(engine);
    p.dbt(['seed']);
    p.dbt(['snapshot', '-s', 'cc_name_snapshot']);
    p.exec("update base set name = 'renamed' where id = 4");
    p.dbt(['snapshot', '-s', 'cc_name_snapshot']);
    const versions = p.rows('cc_name_snapshot', 'dbt_valid_to is null, dbt_valid_from').filter((r) => r.id === 4);
    expect(versions.map((r) => r.name)).toEqual(['name_4', 'renamed']);
    expect(versions[0]!.dbt_valid_to).toBe(versions[1]!.dbt_valid_from);
    expect(versions[1]!.dbt_valid_to).toBeNull();
  });
});
