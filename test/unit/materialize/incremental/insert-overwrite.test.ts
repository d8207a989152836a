import { expect, it } from 'vitest';
import { insertOverwriteStrategy } from '../../../../src/materialize/incremental/insert-overwrite.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { parseModelSettings, type IncrementalModelSettings } from '../../../../src/config/model-settings.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const INCREMENTAL = parseModelSettings({ materialized: 'incremental' }) as IncrementalModelSettings;

/** Orders per day and status, recomputed for the days loaded on the last night. */
const MODEL = `{{ config(materialized='incremental', incremental_strategy='insert_overwrite', partition_by='order_day') }}
with latest as (
  select *, row_number() over (partition by order_id order by loaded_on desc) as rank from {{ source('raw', 'events') }}
)
select order_day, status, count(*) as orders from latest where rank = 1
{% if is_incremental() %}and order_day in (select order_day from {{ source('raw', 'events') }} where loaded_on = (select max(loaded_on) from {{ source('raw', 'events') }})){% endif %}
group by order_day, status
`;

const setupOn = (engine: EngineName) => function setup() {
  const p = miniProject({ 'models/by_status.sql': MODEL }, undefined, { engine });
  p.exec(`create table events (order_id integer, order_day text, status text, loaded_on text);
    insert into events values (1, '2024-01-01', 'placed', '2024-01-01'), (2, '2024-01-01', 'placed', '2024-01-01'), (3, '2024-01-02', 'placed', '2024-01-02');`);
  return p;
};

describeEachEngine('insert_overwrite strategy', (engine) => {
  const setup = setupOn(engine);
  it('emits a NULL-partition check, a delete of every partition present in the new rows, and an insert', () => {
    const statements = insertOverwriteStrategy.statements({
      model: 'm', target: '"m"', newRows: 'temp."m__mini_dbt_new"', uniqueKey: [], destColumns: ['"day"', '"n"'], predicates: [], settings: INCREMENTAL, partitionBy: 'day',
    });
    expect(statements.map((s) => ('sql' in s ? s.sql : s.kind))).toEqual([
      'select count(*) from temp."m__mini_dbt_new" where "day" is null',
      'delete from "m"\nwhere "day" in (select distinct "day" from temp."m__mini_dbt_new")',
      'insert into "m" ("day", "n")\nselect "day", "n" from temp."m__mini_dbt_new"',
    ]);
  });

  it('first build, then replaces whole partitions (rows of other statuses in them too); a rerun is idempotent', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (1, '2024-01-01', 'shipped', '2024-01-03'), (4, '2024-01-03', 'placed', '2024-01-03')`);
    const r = await p.buildOk();
    expect(r.results[0]!.partitions).toEqual(['2024-01-01', '2024-01-03']);
    const after = p.rows('by_status');
    expect(after).toEqual([
      { order_day: '2024-01-01', status: 'placed', orders: 1 },
      { order_day: '2024-01-01', status: 'shipped', orders: 1 },
      { order_day: '2024-01-02', status: 'placed', orders: 1 },
      { order_day: '2024-01-03', status: 'placed', orders: 1 },
    ]);
    await p.buildOk();
    expect(p.rows('by_status')).toEqual(after);
  });

  it('keeps a partition the new rows no longer contain (it became empty upstream); --full-refresh drops it', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`delete from events where order_day = '2024-01-02'; insert into events values (5, '2024-01-04', 'placed', '2024-01-04')`);
    await p.buildOk();
    expect(p.rows('by_status').map((r) => r.order_day)).toEqual(['2024-01-01', '2024-01-02', '2024-01-04']);
    await p.buildOk({ fullRefresh: true });
    expect(p.rows('by_status').map((r) => r.order_day)).toEqual(['2024-01-01', '2024-01-04']);
  });

  it('needs partition_by: without it that model errors on an incremental run (as dbt raises it in the incremental SQL; the first build goes ahead), exit 1', async () => {
    const p = miniProject({ 'models/m.sql': "{{ config(materialized='incremental', incremental_strategy='insert_overwrite') }}select 1 as d" }, undefined, { engine });
    await p.buildOk();
    const r = await p.build();
    expect(r.exitCode).toBe(1);
    expect(r.results[0]!.status).toBe('error');
    expect(r.results[0]!.message).toMatch(/'insert_overwrite' needs partition_by/);
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (1, '2024-01-01', 'shipped', '2024-01-03')`);
    await expectAtomicFailure(p, 'by_status', 'delete');
    await expectAtomicFailure(p, 'by_status', 'commit');
    await expectAtomicFailure(p, 'by_status', 'commit', { fullRefresh: true });
  });
});
