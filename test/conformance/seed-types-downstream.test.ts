import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A seed's inferred types carried into a project on each engine. On
 * PostgreSQL the seed's columns are dbt-postgres's (date, timestamp without
 * time zone, boolean, float8, integer); on SQLite dbt-sqlite's (TEXT dates
 * and timestamps, an INT boolean holding 1 and 0, INTEGER and REAL numbers).
 * Either way an incremental model partitioned by the day column records its
 * partitions in the ledger as YYYY-MM-DD text, the rows read back print
 * dates and timestamps as dbt does (ISO), and the totals agree.
 */
const SEED = [
  'id,day,at,paid,amount',
  '1,2024-01-01,2024-01-01 09:30:00,true,10.5',
  '2,2024-01-01,2024-01-01 18:00:00,false,2.25',
  '3,2024-01-02,2024-01-02 08:00:00,true,7.25',
  '4,2024-01-03,,TRUE,',
].join('\n') + '\n';

const DAILY = `{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='day', partition_by='day') }}
select day, count(*) as orders, sum(case when paid then coalesce(amount, 0) else 0 end) as paid_amount, max(at) as last_at
from {{ ref('orders') }}
{% if is_incremental() %}where day >= (select max(day) from {{ this }}){% endif %}
group by day
`;

describeEachEngine('seed types downstream: ledger partitions, values read back, totals', (engine) => {
  it('builds over the typed seed; partitions are YYYY-MM-DD text; dates and timestamps read back ISO', () => {
    const postgres = engine === 'postgres';
    // SQLite has no boolean: its `paid` holds 1 and 0, so `when paid` reads it as PostgreSQL's boolean.
    const p = conformanceProject({ 'seeds/orders.csv': SEED, 'models/daily.sql': DAILY }, 'seedtypes', { engine });
    const built = p.dbt(['build']);
    expect(built.code, built.stdout + built.stderr).toBe(0);

    const types = p.query(postgres
      ? "select column_name as name, data_type as type from information_schema.columns where table_name = 'orders' and table_schema = current_schema() order by ordinal_position"
      : "select name, type from pragma_table_info('orders')");
    expect(types.map((t) => t.type)).toEqual(postgres
      ? ['integer', 'date', 'timestamp without time zone', 'boolean', 'double precision']
      : ['INTEGER', 'TEXT', 'TEXT', 'INT', 'REAL']);

    expect(p.rows('daily', 'day')).toEqual([
      { day: '2024-01-01', orders: 2, paid_amount: 10.5, last_at: '2024-01-01 18:00:00' },
      { day: '2024-01-02', orders: 1, paid_amount: 7.25, last_at: '2024-01-02 08:00:00' },
      { day: '2024-01-03', orders: 1, paid_amount: 0, last_at: null },
    ]);
    const partitions = () => p.query("select \"partition\" from _mini_dbt_partitions where model = 'daily' order by node_run_id, \"partition\"").map((r) => r.partition);
    expect(partitions()).toEqual(['2024-01-01', '2024-01-02', '2024-01-03']);

    // An incremental run: the day filter compares the engine's own type; the ledger records the rewritten day as text.
    const again = p.dbt(['run']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(partitions()).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-03']);

    const shown = p.dbt(['-q', 'show', '--select', 'orders', '--output', 'json', '--limit', '2']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).show).toEqual([
      { id: 1, day: '2024-01-01', at: '2024-01-01 09:30:00', paid: postgres ? true : 1, amount: 10.5 },
      { id: 2, day: '2024-01-01', at: '2024-01-01 18:00:00', paid: postgres ? false : 0, amount: 2.25 },
    ]);
  });
});
