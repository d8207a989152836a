import { expect, it } from 'vitest';
import { deleteInsertStrategy } from '../../../../src/materialize/incremental/delete-insert.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { parseModelSettings, type IncrementalModelSettings } from '../../../../src/config/model-settings.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const INCREMENTAL = parseModelSettings({ materialized: 'incremental' }) as IncrementalModelSettings;

/** Revenue per day from the latest version of each order, rewriting the last 2 days of orders. */
const MODEL = (key: string, extra = '') => `{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key=${key}${extra}) }}
with latest as (
  select *, row_number() over (partition by order_id order by loaded_on desc) as rank from {{ source('raw', 'events') }}
)
select order_day, shop, sum(amount) as revenue from latest where rank = 1
{% if is_incremental() %}and order_day >= {% if target.type == 'postgres' %}cast(cast((select max(loaded_on) from {{ source('raw', 'events') }}) as date) - 1 as text){% else %}date((select max(loaded_on) from {{ source('raw', 'events') }}), '-1 day'){% endif %}{% endif %}
group by order_day, shop
`;

const setupOn = (engine: EngineName) => function setup(key = "'order_day'", extra = '') {
  const p = miniProject({ 'models/revenue.sql': MODEL(key, extra) }, undefined, { engine });
  p.exec(`create table events (order_id integer, order_day text, shop text, amount real, loaded_on text);
    insert into events values (1, '2024-01-01', 'n', 10, '2024-01-01'), (2, '2024-01-02', 'n', 20, '2024-01-02'), (3, '2024-01-02', 's', 5, '2024-01-02');`);
  return p;
};

/** Revenue per day and shop of the rows loaded on the latest load day (incremental), or all rows: a NULL day passes the filter. */
const nullableDaysOn = (engine: EngineName) => function nullableDays(extra = '') {
  const p = miniProject({
    'models/revenue.sql': `{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='order_day'${extra}) }}
select order_day, shop, sum(amount) as revenue from {{ source('raw', 'events') }}
{% if is_incremental() %}where loaded_on = (select max(loaded_on) from {{ source('raw', 'events') }}){% endif %}
group by order_day, shop`,
  }, undefined, { engine });
  p.exec(`create table events (order_id integer, order_day text, shop text, amount real, loaded_on text);
    insert into events values (1, '2024-01-01', 'n', 10, '2024-01-01'), (2, '2024-01-02', 'n', 20, '2024-01-02');`);
  return p;
};

describeEachEngine('delete+insert strategy', (engine) => {
  const setup = setupOn(engine);
  const nullableDays = nullableDaysOn(engine);
  it('emits a delete by key tuple (with predicates) and an insert', () => {
    const statements = deleteInsertStrategy.statements({
      model: 'm', target: '"m"', newRows: 'temp."m__mini_dbt_new"', uniqueKey: ['day', 'shop'], destColumns: ['"day"', '"shop"', '"v"'], predicates: ["DBT_INTERNAL_DEST.day > '2024-01-01'"], settings: INCREMENTAL,
    });
    expect(statements.map((s) => ('sql' in s ? s.sql : s.kind))).toEqual([
      'delete from "m" as DBT_INTERNAL_DEST\nwhere ("day", "shop") in (select distinct "day", "shop" from temp."m__mini_dbt_new")\n  and (DBT_INTERNAL_DEST.day > \'2024-01-01\')',
      'insert into "m" ("day", "shop", "v")\nselect "day", "shop", "v" from temp."m__mini_dbt_new"',
    ]);
  });

  it('first build, then replaces the days the new rows cover; a rerun is idempotent', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (2, '2024-01-02', 'n', 25, '2024-01-03'), (4, '2024-01-03', 'n', 7, '2024-01-03')`);
    const r = await p.buildOk();
    expect(r.results[0]!.message).toBe('DELETE 2, INSERT 3'); // every row of 01-02 (both shops), then the new rows
    const after = p.rows('revenue');
    expect(after).toEqual([
      { order_day: '2024-01-01', shop: 'n', revenue: 10 },
      { order_day: '2024-01-02', shop: 'n', revenue: 25 },
      { order_day: '2024-01-02', shop: 's', revenue: 5 },
      { order_day: '2024-01-03', shop: 'n', revenue: 7 },
    ]);
    await p.buildOk();
    expect(p.rows('revenue')).toEqual(after);
  });

  it('with a list key, replaces (day, shop) tuples; --full-refresh rebuilds everything', async () => {
    const p = setup("['order_day', 'shop']");
    await p.buildOk();
    expect(p.rows('revenue')).toHaveLength(3);
    p.exec(`insert into events values (3, '2024-01-02', 's', 6, '2024-01-03')`);
    await p.buildOk();
    expect(p.rows('revenue').find((r) => r.shop === 's')).toEqual({ order_day: '2024-01-02', shop: 's', revenue: 6 });
    p.exec(`update events set amount = 100 where order_id = 1`);
    await p.buildOk({ fullRefresh: true });
    expect(p.rows('revenue')[0]).toEqual({ order_day: '2024-01-01', shop: 'n', revenue: 100 });
  });

  it('incremental_predicates (naming the target DBT_INTERNAL_DEST) limit the delete', async () => {
    const p = setup("'order_day'", `, incremental_predicates=["DBT_INTERNAL_DEST.shop = 'n'"]`);
    await p.buildOk();
    p.exec(`insert into events values (2, '2024-01-02', 'n', 25, '2024-01-03')`);
    const r = await p.buildOk();
    expect(r.results[0]!.message).toBe('DELETE 1, INSERT 2'); // the 's' row of 01-02 is kept, then inserted again
    expect(p.rows('revenue').filter((x) => x.order_day === '2024-01-02')).toEqual([
      { order_day: '2024-01-02', shop: 'n', revenue: 25 },
      { order_day: '2024-01-02', shop: 's', revenue: 5 },
      { order_day: '2024-01-02', shop: 's', revenue: 5 },
    ]);
  });

  it("writes NULL key rows as dbt does and warns with the count: delete+insert never deletes them, so every rerun adds them again", async () => {
    const p = nullableDays();
    await p.buildOk();
    p.exec(`insert into events values (9, null, 'n', 1, '2024-01-03'), (10, null, 's', 2, '2024-01-03')`);
    const logs: string[] = [];
    const onEvent = (e: { type: string; message?: string }) => { if (e.type === 'log') logs.push(e.message!); };
    await p.buildOk({ onEvent });
    expect(logs).toEqual(["revenue: 2 rows have NULL in unique_key column 'order_day'; delete+insert never deletes them, so a rerun adds them again (dbt's behaviour; unique_key_nulls: error refuses them)"]);
    const nullDays = () => p.rows('revenue').filter((r) => r.order_day === null);
    expect(nullDays()).toEqual([{ order_day: null, shop: 'n', revenue: 1 }, { order_day: null, shop: 's', revenue: 2 }]);
    await p.buildOk({ onEvent });
    await p.buildOk({ onEvent });
    expect(nullDays()).toHaveLength(6); // the same two rows, once per run
    expect(logs).toHaveLength(3);
  });

  it("without a unique_key it appends every run (dbt's behaviour), duplicating the window's rows, and says so once per run", async () => {
    for (const [strategy, note] of [
      ["incremental_strategy='delete+insert'", 'delete+insert without unique_key appends every run'],
      ["incremental_strategy='default'", 'no unique_key, so the default strategy is append, which appends every run'],
    ] as const) {
      const p = miniProject({
        'models/revenue.sql': `{{ config(materialized='incremental', ${strategy}) }}
select order_day, sum(amount) as revenue from {{ source('raw', 'events') }}
{% if is_incremental() %}where order_day = (select max(order_day) from {{ source('raw', 'events') }}){% endif %}
group by order_day`,
      }, undefined, { engine });
      p.exec(`create table events (order_day text, amount real); insert into events values ('2024-01-01', 10), ('2024-01-02', 20);`);
      const logs: string[] = [];
      const onEvent = (e: { type: string; message?: string }) => { if (e.type === 'log') logs.push(e.message!); };
      await p.buildOk({ onEvent });
      await p.buildOk({ onEvent });
      await p.buildOk({ onEvent });
      expect(p.rows('revenue')).toEqual([
        { order_day: '2024-01-01', revenue: 10 },
        { order_day: '2024-01-02', revenue: 20 },
        { order_day: '2024-01-02', revenue: 20 },
        { order_day: '2024-01-02', revenue: 20 },
      ]);
      expect(logs).toEqual(new Array(3).fill(`revenue: ${note} (dbt's behaviour); rows are duplicated on each rerun of the same window. Set unique_key to replace.`));
    }
  });

  it('unique_key_nulls: error refuses NULL keys instead, full builds included, and changes nothing', async () => {
    const p = nullableDays(", unique_key_nulls='error'");
    await p.buildOk();
    p.exec(`insert into events values (9, null, 'n', 1, '2024-01-03')`);
    const before = p.snapshot();
    for (const fullRefresh of [false, true]) {
      const r = await p.build({ fullRefresh });
      expect(r.results[0]!.status).toBe('error');
      expect(r.results[0]!.message).toContain("model 'revenue' produced NULL in unique_key column 'order_day' (1 row)");
      expect(p.snapshot()).toEqual(before);
    }
  });

  it('an invalid unique_key_nulls is a config error', () => {
    expect(() => setup("'order_day'", ", unique_key_nulls='maybe'")).toThrow("model 'revenue' has invalid unique_key_nulls 'maybe'; valid: warn (dbt's behaviour: write them and say how many), error");
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (2, '2024-01-02', 'n', 25, '2024-01-03')`);
    await expectAtomicFailure(p, 'revenue', 'delete');
    await expectAtomicFailure(p, 'revenue', 'insert');
    await expectAtomicFailure(p, 'revenue', 'commit');
    await expectAtomicFailure(p, 'revenue', 'commit', { fullRefresh: true });
  });
});
