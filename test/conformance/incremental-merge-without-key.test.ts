import { expect, it } from 'vitest';
import { backfill } from '../../src/api/backfill.js';
import { stale } from '../../src/api/stale.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): merge without a unique_key. dbt's
 * default__get_merge_sql then matches on FALSE, so the MERGE inserts every
 * new row and updates none: the model behaves as append. The rows are
 * compared with the same model under append; a backfill refuses it as it
 * refuses append (it would insert its range a second time).
 */

const RAW = `create table events (id integer, day text, amount integer);
insert into events values (1, '2024-01-01', 10), (2, '2024-01-01', 20), (3, '2024-01-02', 30);`;

function model(config: string): string {
  return `{{ config(materialized='incremental'${config}) }}
select id, day, amount from {{ source('raw', 'events') }}
{% if is_incremental() %} where day >= (select max(day) from {{ this }}) {% endif %}
`;
}

const projectOn = (engine: EngineName) => function project(config: string): MiniProject {
  const p = miniProject({ 'models/merged.sql': model(`, incremental_strategy='merge'${config}`), 'models/appended.sql': model(", incremental_strategy='append'") }, undefined, { engine });
  p.exec(RAW);
  return p;
};

const ids = (p: MiniProject, table: string) => p.rows(table, 'id, day, amount').map((r) => r.id);

describeEachEngine("merge without a unique_key inserts every new row, as dbt's MERGE on FALSE does (the same rows as append)", (engine) => {
  const project = projectOn(engine);
  for (const [label, config] of [['unset', ''], ["''", ", unique_key=''"], ['[]', ', unique_key=[]']] as const) {
    it(`unique_key ${label}: the run succeeds, re-selected rows are inserted again, and the table equals the append model's`, async () => {
      const p = project(config);
      await p.buildOk();
      p.exec("insert into events values (4, '2024-01-02', 40)");
      const second = await p.buildOk();
      const merged = second.results.find((r) => r.name === 'merged')!;
      expect(merged.plan!.mode).toBe('incremental');
      expect(merged.plan!.strategy).toBe('merge');
      expect(merged.rowsInserted).toBe(2);
      // day 2024-01-02 was selected again: row 3 twice, row 4 once
      expect(ids(p, 'merged')).toEqual([1, 2, 3, 3, 4]);
      expect(p.rows('merged')).toEqual(p.rows('appended'));
    });
  }

  it("merge_exclude_columns and incremental_predicates change nothing without a key: every row is inserted (dbt's ON clause is FALSE whatever the predicates)", async () => {
    const p = project(", merge_exclude_columns=['amount'], incremental_predicates=['DBT_INTERNAL_DEST.id > 100']");
    await p.buildOk();
    await p.buildOk();
    expect(ids(p, 'merged')).toEqual([1, 2, 3, 3]);
    expect(p.rows('merged')).toEqual(p.rows('appended'));
  });

  it('--full-refresh rebuilds it from the source, as any incremental model', async () => {
    const p = project('');
    await p.buildOk();
    await p.buildOk();
    expect(ids(p, 'merged')).toHaveLength(4);
    await p.buildOk({ fullRefresh: true });
    expect(p.rows('merged')).toEqual(p.rows('events'));
  });

  it('with a unique_key the same runs update in place (the key is what makes merge replace)', async () => {
    const p = project(", unique_key='id'");
    await p.buildOk();
    p.exec("update events set amount = 31 where id = 3");
    await p.buildOk();
    expect(p.rows('merged')).toEqual([{ id: 1, day: '2024-01-01', amount: 10 }, { id: 2, day: '2024-01-01', amount: 20 }, { id: 3, day: '2024-01-02', amount: 31 }]);
  });
});

describeEachEngine('a backfill refuses merge without a unique_key, as it refuses append: it would insert its range a second time', (engine) => {
  const project = projectOn(engine);
  /** A model a backfill can drive: the start/end vars select the range, else the latest day again. */
  const ranged = (config: string) => `{{ config(materialized='incremental', partition_by='day'${config}) }}
select id, day, amount from {{ source('raw', 'events') }}
{% if var('start', none) %} where day between '{{ var('start') }}' and '{{ var('end') }}'
{% elif is_incremental() %} where day >= (select max(day) from {{ this }}) {% endif %}
`;

  function partitioned(config: string): MiniProject {
    const p = miniProject({ 'models/merged.sql': ranged(`, incremental_strategy='merge'${config}`) }, undefined, { engine });
    p.exec(RAW);
    return p;
  }

  it('keyless merge: the backfill is refused before anything runs, naming the missing key; the table is as it was', async () => {
    const p = partitioned('');
    await p.buildOk();
    const before = p.rows('merged');
    await expect(backfill({ projectDir: p.dir, model: 'merged', start: '2024-01-01', end: '2024-01-02', reason: 'late rows' }))
      .rejects.toThrow("model 'merged' uses incremental_strategy 'merge' without a unique_key, which never deletes: a backfill would insert its range a second time");
    expect(p.rows('merged')).toEqual(before);
  });

  it('keyless delete+insert is refused the same way (it only inserts too)', async () => {
    const p = partitioned('');
    p.write('models/merged.sql', ranged(", incremental_strategy='delete+insert'"));
    await p.buildOk();
    await expect(backfill({ projectDir: p.dir, model: 'merged', start: '2024-01-01', end: '2024-01-02', reason: 'late rows' }))
      .rejects.toThrow("uses incremental_strategy 'delete+insert' without a unique_key, which never deletes");
  });

  it('stale suggests a full refresh for it, not a backfill; with unique_key the backfill runs and replaces the range', async () => {
    const p = partitioned('');
    await p.buildOk();
    p.exec("update events set amount = 11 where id = 1");
    expect(stale({ projectDir: p.dir, model: 'merged' }).backfill_command).toBe('mini-dbt run --select merged --full-refresh');

    const keyed = partitioned(", unique_key='id'");
    await keyed.buildOk();
    keyed.exec("update events set amount = 11 where id = 1");
    expect(stale({ projectDir: keyed.dir, model: 'merged' }).backfill_command).toBe('mini-dbt backfill merged --stale --reason "<why>"');
    const done = await backfill({ projectDir: keyed.dir, model: 'merged', start: '2024-01-01', end: '2024-01-02', reason: 'late rows' });
    expect(done.exitCode).toBe(0);
    expect(keyed.rows('merged')).toEqual(keyed.rows('events'));
  });
});
