import { expect, it } from 'vitest';
import { microbatchStrategy } from '../../../../src/materialize/incremental/microbatch.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { parseModelSettings, type IncrementalModelSettings } from '../../../../src/config/model-settings.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const INCREMENTAL = parseModelSettings({ materialized: 'incremental' }) as IncrementalModelSettings;

const SOURCES = `sources:
  - name: raw
    schema: "{{ target.schema }}"
    tables:
      - name: events
        event_time: occurred_on
`;
const MODEL = `{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='day', batch_size='day', begin='2024-01-01') }}
select occurred_on as day, count(*) as n, sum(amount) as amount from {{ source('raw', 'events') }} group by occurred_on
`;

const setupOn = (engine: EngineName) => function setup() {
  const p = miniProject({ 'models/sources.yml': SOURCES, 'models/daily.sql': MODEL }, undefined, { engine });
  p.exec(`create table events (id integer, occurred_on text, amount real);
    insert into events values (1, '2024-01-01', 1), (2, '2024-01-02', 2), (3, '2024-01-02', 3), (4, '2024-01-03', 4);`);
  return p;
};
const night = (asOf: string) => ({ vars: { as_of: asOf } });

describeEachEngine('microbatch strategy', (engine) => {
  const setup = setupOn(engine);
  it('emits a window check, a delete of the half-open window and an insert', () => {
    const statements = microbatchStrategy.statements({
      model: 'daily', target: '"daily"', newRows: 'temp."daily__mini_dbt_new"', uniqueKey: [], destColumns: ['"day"', '"n"'],
      predicates: ['n > 0'], settings: INCREMENTAL, window: { eventTime: 'day', label: '2024-01-02', start: '2024-01-02', end: '2024-01-03' },
    });
    expect(statements.map((s) => ('sql' in s ? s.sql : s.kind))).toEqual([
      `select count(*) from temp."daily__mini_dbt_new" where not ("day" >= '2024-01-02' and "day" < '2024-01-03') or "day" is null`,
      `delete from "daily" as DBT_INTERNAL_DEST\nwhere "day" >= '2024-01-02' and "day" < '2024-01-03'\n  and (n > 0)`,
      `insert into "daily" ("day", "n")\nselect "day", "n" from temp."daily__mini_dbt_new"`,
    ]);
  });

  it('first build: one transaction per batch from begin, batch 1 creating the table; each batch in the ledger', async () => {
    const p = setup();
    const r = await p.buildOk(night('2024-01-03'));
    expect(r.results[0]!.plan!.batches!.map((b) => [b.label, b.mode])).toEqual([['2024-01-01', 'full'], ['2024-01-02', 'incremental'], ['2024-01-03', 'incremental']]);
    expect(r.results[0]!.batchResults).toEqual({ successful: [['2024-01-01', '2024-01-02'], ['2024-01-02', '2024-01-03'], ['2024-01-03', '2024-01-04']], failed: [] });
    expect(p.rows('daily')).toEqual([
      { day: '2024-01-01', n: 1, amount: 1 },
      { day: '2024-01-02', n: 2, amount: 5 },
      { day: '2024-01-03', n: 1, amount: 4 },
    ]);
    expect(p.ledger('daily').map((l) => [l.mode, l.strategy, l.window_start, l.window_end, l.status])).toEqual([
      ['full', 'microbatch', '2024-01-01', '2024-01-02', 'success'],
      ['incremental', 'microbatch', '2024-01-02', '2024-01-03', 'success'],
      ['incremental', 'microbatch', '2024-01-03', '2024-01-04', 'success'],
    ]);
  });

  it('incremental run: the current batch and one before it (lookback 1) are replaced; a rerun is idempotent', async () => {
    const p = setup();
    await p.buildOk(night('2024-01-03'));
    p.exec(`insert into events values (5, '2024-01-03', 10), (6, '2024-01-04', 6), (7, '2024-01-01', 100)`);
    const r = await p.buildOk(night('2024-01-04'));
    expect(r.results[0]!.plan!.batches!.map((b) => b.label)).toEqual(['2024-01-03', '2024-01-04']);
    const after = p.rows('daily');
    expect(after).toEqual([
      { day: '2024-01-01', n: 1, amount: 1 }, // later than the lookback: not revisited
      { day: '2024-01-02', n: 2, amount: 5 },
      { day: '2024-01-03', n: 2, amount: 14 },
      { day: '2024-01-04', n: 1, amount: 6 },
    ]);
    await p.buildOk(night('2024-01-04'));
    expect(p.rows('daily')).toEqual(after);
    // A profile's target (PostgreSQL) names the relation in its schema; the project's own file names it bare.
    expect(await p.script('daily', night('2024-01-04'))).toContain(`delete from ${engine === 'postgres' ? '"public"."daily"' : '"daily"'}\nwhere "day" >= '2024-01-04' and "day" < '2024-01-05'`);
  });

  it('--full-refresh rebuilds every batch from begin', async () => {
    const p = setup();
    await p.buildOk(night('2024-01-03'));
    p.exec(`insert into events values (7, '2024-01-01', 100)`);
    const r = await p.buildOk({ ...night('2024-01-03'), fullRefresh: true });
    expect(r.results[0]!.plan!.mode).toBe('full');
    expect(p.rows('daily')[0]).toEqual({ day: '2024-01-01', n: 2, amount: 101 });
  });

  it('writes rows outside the batch window, as dbt does, and counts them in a warning', async () => {
    const p = miniProject({
      'models/sources.yml': SOURCES.replace('        event_time: occurred_on\n', ''), // no event_time upstream: nothing is filtered
      'models/daily.sql': MODEL,
    }, undefined, { engine });
    p.exec(`create table events (id integer, occurred_on text, amount real); insert into events values (1, '2024-01-01', 1), (2, '2024-01-02', 2)`);
    const lines: string[] = [];
    await p.buildOk({ ...night('2024-01-02'), onEvent: (e) => { if (e.type === 'log') lines.push(e.message); } });
    // Batch 01-01 writes both days; batch 01-02 deletes its own window and writes both again: 01-01 twice.
    expect(p.rows('daily').map((r) => r.day)).toEqual(['2024-01-01', '2024-01-01', '2024-01-02']);
    expect(lines).toContain("daily: batch 2024-01-01: 1 row has event_time 'day' outside batch 2024-01-01 [2024-01-01, 2024-01-02) or NULL; a batch deletes only its own window, so each rerun of this batch writes them again (dbt's behaviour; filter on event_time or declare it on the upstream, and rows_outside_batch: error refuses them)");
  });

  it('rows_outside_batch: error (the opt-in) refuses rows outside the batch window', async () => {
    const p = miniProject({
      'models/sources.yml': SOURCES.replace('        event_time: occurred_on\n', ''),
      'models/daily.sql': MODEL.replace("begin='2024-01-01'", "begin='2024-01-01', rows_outside_batch='error'"),
    }, undefined, { engine });
    p.exec(`create table events (id integer, occurred_on text, amount real); insert into events values (1, '2024-01-01', 1), (2, '2024-01-02', 2)`);
    const r = await p.build(night('2024-01-02'));
    expect(r.results[0]!.message).toContain("model 'daily' produced rows outside batch 2024-01-01 [2024-01-01, 2024-01-02)");
    expect(p.columns('daily')).toEqual([]);
  });

  it('a failure after the last statement of a batch publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup();
    await p.buildOk(night('2024-01-03'));
    p.exec(`insert into events values (5, '2024-01-03', 10)`);
    await expectAtomicFailure(p, 'daily', 'commit', night('2024-01-03'));
    await expectAtomicFailure(p, 'daily', 'insert', night('2024-01-03'));
    await expectAtomicFailure(p, 'daily', 'commit', { ...night('2024-01-03'), fullRefresh: true });
  });
});
