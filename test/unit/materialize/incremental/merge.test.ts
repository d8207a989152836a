import { expect, it } from 'vitest';
import { mergeStrategy } from '../../../../src/materialize/incremental/merge.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { parseModelSettings, type IncrementalModelSettings } from '../../../../src/config/model-settings.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const INCREMENTAL = parseModelSettings({ materialized: 'incremental' }) as IncrementalModelSettings;

const MODEL = (extra = '') => `{{ config(materialized='incremental', incremental_strategy='merge', unique_key='id'${extra}) }}
select id, status, amount, updated_at from {{ source('raw', 'events') }}
{% if is_incremental() %}where updated_at > (select max(updated_at) from {{ this }}){% endif %}
`;

const setupOn = (engine: EngineName) => function setup(extra = '') {
  const p = miniProject({ 'models/orders.sql': MODEL(extra) }, undefined, { engine });
  p.exec(`create table events (id integer, status text, amount real, updated_at text);
    insert into events values (1, 'placed', 10, '2024-01-01'), (2, 'placed', 20, '2024-01-01');`);
  return p;
};

describeEachEngine('merge strategy', (engine) => {
  const setup = setupOn(engine);
  it("emits dbt's MERGE as statements: the key's index, the match (keys and predicates), the double-match refusal, the update and the insert of what matched nothing", () => {
    const statements = mergeStrategy.statements({
      model: 'orders', target: '"orders"', targetName: 'orders', targetSchema: 'main', newRows: 'temp."orders__mini_dbt_new"', uniqueKey: ['id'],
      destColumns: ['"id"', '"status"', '"amount"'], predicates: ["DBT_INTERNAL_SOURCE.amount > DBT_INTERNAL_DEST.amount"], settings: INCREMENTAL,
    });
    expect(statements.map((s) => s.kind === 'exec' ? s.role : s.kind)).toEqual(['index', 'index', 'drop', 'stage', 'assert-none', 'upsert', 'insert', 'drop']);
    const sql = statements.map((s) => ('sql' in s ? s.sql : '')).join('\n');
    expect(sql).toContain('drop index if exists "orders__uidx__id"');
    expect(sql).toContain('create index if not exists "orders__idx__id" on "orders" ("id")');
    expect(sql).toContain([
      'create temp table "orders__mini_dbt_match" as',
      'select DBT_INTERNAL_DEST.rowid as dest_row, DBT_INTERNAL_SOURCE.rowid as source_row',
      'from "orders" as DBT_INTERNAL_DEST join temp."orders__mini_dbt_new" as DBT_INTERNAL_SOURCE',
      '  on DBT_INTERNAL_SOURCE."id" = DBT_INTERNAL_DEST."id"',
      '  and (DBT_INTERNAL_SOURCE.amount > DBT_INTERNAL_DEST.amount)',
    ].join('\n'));
    expect(sql).toContain('select count(*) from (select dest_row from temp."orders__mini_dbt_match" group by dest_row having count(*) > 1)');
    expect(sql).toContain([
      'update "orders" as DBT_INTERNAL_DEST set',
      '  "status" = DBT_INTERNAL_SOURCE."status",',
      '  "amount" = DBT_INTERNAL_SOURCE."amount"',
    ].join('\n'));
    expect(sql).toContain('insert into "orders" ("id", "status", "amount")\nselect "id", "status", "amount" from temp."orders__mini_dbt_new"\nwhere rowid not in (select source_row from temp."orders__mini_dbt_match")');
  });

  it('builds, then updates matched keys and inserts new ones; a rerun changes nothing', async () => {
    const p = setup();
    await p.buildOk();
    expect(p.rows('orders')).toEqual([
      { id: 1, status: 'placed', amount: 10, updated_at: '2024-01-01' },
      { id: 2, status: 'placed', amount: 20, updated_at: '2024-01-01' },
    ]);
    // The first build created the index the match seeks through (not unique: dbt's table may hold a key twice).
    expect(p.indexes('orders')).toEqual([{ name: 'orders__idx__id', columns: ['id'], unique: false }]);
    p.exec(`insert into events values (1, 'shipped', 10, '2024-01-02'), (3, 'placed', 30, '2024-01-02')`);
    const second = await p.buildOk();
    expect(second.results[0]!.plan!.mode).toBe('incremental');
    expect(p.rows('orders')).toEqual([
      { id: 1, status: 'shipped', amount: 10, updated_at: '2024-01-02' },
      { id: 2, status: 'placed', amount: 20, updated_at: '2024-01-01' },
      { id: 3, status: 'placed', amount: 30, updated_at: '2024-01-02' },
    ]);
    const after = p.rows('orders');
    await p.buildOk();
    expect(p.rows('orders')).toEqual(after);
    const script = await p.script('orders');
    // A profile's target (PostgreSQL) names the relation in its schema; the project's own file names it bare.
    // PostgreSQL 15 runs dbt-postgres's MERGE; SQLite, which has none, matches, updates and inserts in steps.
    if (engine === 'postgres') {
      expect(script).toContain('merge into "public"."orders" as DBT_INTERNAL_DEST\nusing ');
      expect(script).toContain('when matched then update set\n  "status" = DBT_INTERNAL_SOURCE."status"');
      expect(script).toContain('when not matched then insert ("id", "status", "amount", "updated_at")');
    } else {
      expect(script).toContain('update "orders" as DBT_INTERNAL_DEST set');
    }
  });

  it('--full-refresh rebuilds from every raw row (one row per key)', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`delete from events where id = 2; insert into events values (4, 'placed', 40, '2023-12-31')`);
    await p.buildOk();
    expect(p.rows('orders').map((r) => r.id)).toEqual([1, 2]); // the older row 4 is not newer than max(updated_at)
    const full = await p.buildOk({ fullRefresh: true });
    expect(full.results[0]!.plan!.mode).toBe('full');
    expect(p.rows('orders').map((r) => r.id)).toEqual([1, 4]);
  });

  it('merge_update_columns updates only those columns; merge_exclude_columns leaves columns alone', async () => {
    const only = setup(", merge_update_columns=['status']");
    await only.buildOk();
    only.exec(`insert into events values (1, 'shipped', 99, '2024-01-02')`);
    await only.buildOk();
    expect(only.rows('orders')[0]).toEqual({ id: 1, status: 'shipped', amount: 10, updated_at: '2024-01-01' });

    const exclude = setup(", merge_exclude_columns=['amount']");
    await exclude.buildOk();
    exclude.exec(`insert into events values (1, 'shipped', 99, '2024-01-02')`);
    await exclude.buildOk();
    expect(exclude.rows('orders')[0]).toEqual({ id: 1, status: 'shipped', amount: 10, updated_at: '2024-01-02' });
  });

  it('refuses both merge_update_columns and merge_exclude_columns: that model errors when it runs (as the merge macro of dbt raises), exit 1; without a unique_key it inserts every row, as dbt\'s MERGE on FALSE does', async () => {
    // dbt raises it in the merge SQL of an incremental run: the first build goes ahead.
    const bothProject = setup(", merge_update_columns=['status'], merge_exclude_columns=['amount']");
    await bothProject.buildOk();
    const both = await bothProject.build();
    expect(both.exitCode).toBe(1);
    expect(both.results[0]!.status).toBe('error');
    expect(both.results[0]!.message).toMatch(/cannot both be set/);
    const keyless = miniProject({ 'models/m.sql': "{{ config(materialized='incremental', incremental_strategy='merge') }}select 1 as id" }, undefined, { engine });
    await keyless.buildOk();
    await keyless.buildOk();
    expect(keyless.rows('m')).toEqual([{ id: 1 }, { id: 1 }]);
  });

  it("incremental_predicates are part of the match, as in dbt's MERGE: an existing row they exclude is not updated, and its new version is inserted next to it", async () => {
    const p = setup(", incremental_predicates=[\"DBT_INTERNAL_DEST.status != 'locked'\"]");
    await p.buildOk();
    p.exec(`update events set status = 'locked' where id = 2`);
    await p.buildOk({ fullRefresh: true });
    p.exec(`insert into events values (1, 'shipped', 10, '2024-01-02'), (2, 'shipped', 20, '2024-01-02')`);
    await p.buildOk();
    expect(p.rows('orders', 'id, status').map((r) => [r.id, r.status])).toEqual([[1, 'shipped'], [2, 'locked'], [2, 'shipped']]);
  });

  it("writes NULL key rows as dbt does, with a warning: merge never matches them, so each rerun adds them again", async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (null, 'placed', 5, '2024-01-03'), (null, 'placed', 6, '2024-01-03')`);
    const logs: string[] = [];
    await p.buildOk({ onEvent: (e) => e.type === 'log' && logs.push(e.message) });
    expect(logs).toContain("orders: 2 rows have NULL in unique_key column 'id'; merge never matches them, so a rerun adds them again (dbt's behaviour; unique_key_nulls: error refuses them)");
    p.exec(`update events set updated_at = '2024-01-04' where id is null`);
    await p.buildOk();
    expect(p.rows('orders').filter((r) => r.id === null)).toHaveLength(4);
  });

  it('fails clearly on a NULL key under unique_key_nulls: error, or an existing row matched by two new rows; two new rows with one new key are both inserted', async () => {
    const p = setup(", unique_key_nulls='error'");
    await p.buildOk();
    p.exec(`insert into events values (null, 'placed', 5, '2024-01-03')`);
    const before = p.snapshot();
    const nullKey = await p.build();
    expect(nullKey.results[0]!.message).toContain("model 'orders' produced NULL in unique_key column 'id' (1 row)");
    expect(nullKey.results[0]!.message).toContain('hint: unique_key_nulls: error refuses NULL keys');
    expect(p.snapshot()).toEqual(before);
    p.exec(`delete from events where id is null; insert into events values (5, 'a', 1, '2024-01-03'), (5, 'b', 2, '2024-01-03')`);
    await p.buildOk();
    expect(p.rows('orders', 'id, status').filter((r) => r.id === 5).map((r) => r.status)).toEqual(['a', 'b']);
    p.exec(`insert into events values (1, 'x', 1, '2024-01-04'), (1, 'y', 2, '2024-01-04')`);
    const before2 = p.snapshot();
    const twice = await p.build();
    expect(twice.results[0]!.message).toContain('more than one row for an existing unique_key (id)');
    expect(p.snapshot()).toEqual(before2);
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (1, 'shipped', 10, '2024-01-02'), (3, 'placed', 30, '2024-01-02')`);
    await expectAtomicFailure(p, 'orders', 'upsert');
    await expectAtomicFailure(p, 'orders', 'commit');
    p.exec(`delete from events where id = 1 and updated_at = '2024-01-01'`);
    await expectAtomicFailure(p, 'orders', 'commit', { fullRefresh: true });
    await p.buildOk();
    expect(p.rows('orders')).toHaveLength(3);
  });
});
