import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, pgReader, withReader, type EngineName } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 15): deleted source rows, modelled on dbt-tests-adapter's
 * simple_snapshot/new_record_timestamp_mode.py (hard_deletes: new_record: delete, rerun, reinsert,
 * delete again: 2, 2, 3, 4 rows for the key; dbt_is_deleted 'True' / 'False') and dbt's
 * invalidate_hard_deletes (the current row closed at the snapshot run's time).
 */

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const SEED = `id,first_name,email,updated_at
1,Judith,(not provided),2015-12-24 12:19:28
2,Arthur,(not provided),2015-10-28 16:22:15
3,Rachel,rmoreno2@msu.edu,2016-04-05 02:05:30
`;

function project(engine: EngineName, config: string): ConformanceProject {
  return conformanceProject({
    'seeds/seed.csv': SEED,
    'snapshots/snapshot.sql': `{% snapshot snapshot_actual %}\n{{ config(unique_key="id || '-' || first_name", strategy='timestamp', updated_at='updated_at'${config}) }}\nselect * from {{ ref('seed') }}\n{% endsnapshot %}\n`,
  }, 'conformance', { engine });
}

describeEachEngine('snapshot hard deletes', (engine) => {
  for (const config of [", invalidate_hard_deletes=True", ", hard_deletes='invalidate'"]) {
    it(`${config.slice(2)}: the deleted key's row is closed at the run's time, nothing inserted`, async () => {
      const p = project(engine, config);
      await succeedingRun(p.dir, { command: 'seed' });
      await succeedingRun(p.dir, { command: 'snapshot' });
      p.exec('delete from seed where id = 1');
      const out = p.dbt(['snapshot']);
      expect(out.code, out.stdout + out.stderr).toBe(0);
      expect(out.stdout).toContain('snapshot_actual: new 0, changed 0, deleted 1, unchanged 2');
      const snap = p.rows('snapshot_actual', 'id');
      expect(snap).toHaveLength(3);
      expect(snap[0]!.dbt_valid_to).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(snap.slice(1).map((r) => r.dbt_valid_to)).toEqual([null, null]);
      expect(p.columns('snapshot_actual')).not.toContain('dbt_is_deleted');
      // Rerun: already closed, nothing changes.
      await succeedingRun(p.dir, { command: 'snapshot' });
      expect(p.rows('snapshot_actual', 'id')).toEqual(snap);
    });
  }

  it.runIf(engine === 'postgres')("typed columns on PostgreSQL: a timestamp updated_at gives timestamp meta columns (check strategy: the run's time, a timestamp), deletions closed at a timestamp", () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nseeds:\n  conformance:\n    +column_types: {updated_at: timestamp}\n",
      'seeds/seed.csv': SEED,
      'snapshots/snapshot.sql': `{% snapshot by_time %}\n{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at', hard_deletes='new_record') }}\nselect * from {{ ref('seed') }}\n{% endsnapshot %}\n`
        + `{% snapshot by_check %}\n{{ config(unique_key='id', strategy='check', check_cols='all', hard_deletes='invalidate') }}\nselect * from {{ ref('seed') }}\n{% endsnapshot %}\n`,
    }, 'conformance', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    expect(p.dbt(['snapshot']).code).toBe(0);
    p.exec('delete from seed where id = 1');
    const out = p.dbt(['snapshot']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const types = (relation: string) => Object.fromEntries(withReader(() => pgReader(p.pg!), (db) => db.columns(relation)).map((c) => [c.name, c.type]));
    for (const relation of ['by_time', 'by_check']) {
      expect(types(relation)).toMatchObject({ dbt_updated_at: 'timestamp without time zone', dbt_valid_from: 'timestamp without time zone', dbt_valid_to: 'timestamp without time zone' });
    }
    const closed = p.rows('by_check', 'id, dbt_valid_from').filter((r) => r.id === 1);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.dbt_valid_to).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(p.rows('by_time', 'id, dbt_valid_from').filter((r) => r.id === 1).map((r) => [r.updated_at, r.dbt_is_deleted, r.dbt_valid_to === null])).toEqual([
      ['2015-12-24 12:19:28', 'False', false], ['2015-12-24 12:19:28', 'True', true],
    ]);
  });

  it('build --empty leaves an existing snapshot as it is (its query reads no rows: nothing is deleted)', async () => {
    const p = project(engine, ", hard_deletes='invalidate'");
    await succeedingRun(p.dir, { command: 'build' });
    const before = p.rows('snapshot_actual');
    const out = p.dbt(['build', '--empty']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain('snapshot_actual: new 0, changed 0, deleted 0, unchanged 3');
    expect(p.rows('snapshot_actual')).toEqual(before);
  });

  it("hard_deletes: 'new_record': a dbt_is_deleted 'True' row per deletion; reinsert and delete again (2, 2, 3, 4 rows)", async () => {
    const p = project(engine, ", hard_deletes='new_record'");
    await succeedingRun(p.dir, { command: 'seed' });
    await succeedingRun(p.dir, { command: 'snapshot' });
    const first = p.rows('snapshot_actual', 'id');
    expect(first.map((r) => [r.dbt_is_deleted, r.dbt_scd_id])).toEqual([
      ['False', md5('1-Judith|2015-12-24 12:19:28')],
      ['False', md5('2-Arthur|2015-10-28 16:22:15')],
      ['False', md5('3-Rachel|2016-04-05 02:05:30')],
    ]);
    const key1 = () => p.rows('snapshot_actual', 'dbt_valid_from, dbt_is_deleted').filter((r) => r.id === 1);
    p.exec('delete from seed where id = 1');
    const out = p.dbt(['snapshot']);
    expect(out.stdout).toContain('snapshot_actual: new 0, changed 0, deleted 1, unchanged 2');
    const deleted = key1();
    expect(deleted).toHaveLength(2);
    expect(deleted.filter((r) => r.dbt_valid_to === null && r.dbt_is_deleted === 'True')).toHaveLength(1);
    expect(deleted.filter((r) => r.dbt_valid_to !== null && r.dbt_is_deleted === 'False')).toHaveLength(1);
    expect(deleted[0]!.dbt_scd_id).not.toBe(deleted[1]!.dbt_scd_id);
    const marker = deleted.find((r) => r.dbt_is_deleted === 'True')!;
    expect(marker.dbt_scd_id).toBe(md5(`${md5('1-Judith|2015-12-24 12:19:28')}|${marker.dbt_valid_from}`));
    // Same source: nothing happens.
    await succeedingRun(p.dir, { command: 'snapshot' });
    expect(key1()).toHaveLength(2);
    // Reinsert: the deletion row is closed, a new current row.
    p.exec("insert into seed values (1, 'Judith', '(not provided)', '2200-01-01 12:00:00')");
    await succeedingRun(p.dir, { command: 'snapshot' });
    const back = key1();
    expect(back).toHaveLength(3);
    expect(back.filter((r) => r.dbt_valid_to === null).map((r) => [r.dbt_is_deleted, r.updated_at])).toEqual([['False', '2200-01-01 12:00:00']]);
    // Delete again, then rerun: 4 rows, then still 4.
    p.exec('delete from seed where id = 1');
    await succeedingRun(p.dir, { command: 'snapshot' });
    expect(key1()).toHaveLength(4);
    await succeedingRun(p.dir, { command: 'snapshot' });
    expect(key1()).toHaveLength(4);
  });
});
