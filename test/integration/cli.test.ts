import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullRebuild } from '../support/revenue-oracle.js';
import { generateFeed } from '../../src/feed/generate-feed.js';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';
import { asPlain, dailyRevenue, tableRows } from '../support/warehouse-rows.js';

describe('the README commands, through the built CLI', () => {
  let dir: string;
  const cli = (...args: string[]) => runCli([...args, '--project-dir', dir]);
  beforeAll(() => {
    dir = exampleProject();
  });

  it('seed loads the feed', () => {
    const r = cli('seed');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 of 1 START seed file main\.raw_orders \.+ \[RUN\]/);
    expect(r.stdout).toMatch(/1 of 1 OK loaded seed file main\.raw_orders \.+ \[INSERT 1124 in \d+\.\d\ds\]/);
    expect(r.stdout).toMatch(/Done\. PASS=1 WARN=0 ERROR=0 SKIP=0 TOTAL=1/);
    expect(tableRows(dir, 'raw_orders')).toHaveLength(1124);
  });

  it('a full build as of 1 September holds that one day', () => {
    const r = cli('run', '--select', 'daily_revenue', '--full-refresh', '--vars', '{as_of: "2026-09-01"}');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 of 1 START sql incremental model main\.daily_revenue \.+ \[RUN\]/);
    expect(r.stdout).toMatch(/1 of 1 OK created sql incremental model main\.daily_revenue \.+ \[SELECT 1 in/);
    expect([...dailyRevenue(dir).keys()]).toEqual(['2026-09-01']);
  });

  it('a nightly run rewrites the lookback window: DELETE and INSERT counts', () => {
    const r = cli('run', '--select', 'daily_revenue', '--vars', '{as_of: "2026-09-02", lookback_days: 3}');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/OK created sql incremental model main\.daily_revenue \.+ \[DELETE 1, INSERT 2 in/);
    expect(r.stdout).toMatch(/incremental \(delete\+insert\).*wrote 2 partitions 2026-09-01\.\.2026-09-02; as of 2026-09-02/);
  });

  it('start and end vars rewrite exactly that range with everything landed', () => {
    const r = cli('run', '--select', 'daily_revenue', '--vars', '{start: "2026-09-03", end: "2026-10-26"}');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[DELETE 0, INSERT 54 in/);
    expect(r.stdout).toMatch(/backfill \(delete\+insert\).*wrote 54 partitions 2026-09-03\.\.2026-10-26; as of 2026-10-31/);
    expect(dailyRevenue(dir).size).toBe(56);
  });

  it('run --full-refresh rebuilds everything in DAG order and writes dbt artifacts', () => {
    const r = cli('run', '--full-refresh');
    expect(r.code).toBe(0);
    const order = [...r.stdout.matchAll(/\d of 3 OK created sql (\w+) model main\.(\w+)/g)].map((m) => `${m[2]}:${m[1]}`);
    expect(order).toEqual(['daily_revenue:incremental', 'stg_orders:view', 'monthly_revenue:table']);
    expect(r.stdout).toMatch(/Finished running 1 incremental model, 1 table model, 1 view model in/);
    // How each model was built is said for the incremental one only: a table is always rebuilt (dbt prints nothing more either).
    expect(r.stdout).toMatch(/OK created sql incremental model main\.daily_revenue .*\n.*full \(delete\+insert\): --full-refresh/);
    expect(r.stdout).toMatch(/OK created sql table model main\.monthly_revenue [^\n]*\n[^\n]*(START|Finished|\n)/);
    expect(r.stdout).not.toContain('tables are rebuilt on every run');
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(fullRebuild(generateFeed())));
    const months = tableRows(dir, 'monthly_revenue') as { month: string; orders: number }[];
    expect(months.map((m) => [m.month, m.orders])).toEqual([['2026-09', 491], ['2026-10', 541]]);

    const results = JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8'));
    expect(results.results.map((x: { unique_id: string; status: string }) => [x.unique_id, x.status])).toEqual([
      ['model.brightcart.daily_revenue', 'success'], ['model.brightcart.stg_orders', 'success'], ['model.brightcart.monthly_revenue', 'success'],
    ]);
    expect(results.results[0]).toMatchObject({ adapter_response: { _message: 'SELECT 61', code: 'SELECT', rows_affected: 61 }, relation_name: '"main"."daily_revenue"' });
    expect(results.results[0].timing[0]).toHaveProperty('started_at');
    expect(typeof results.results[0].execution_time).toBe('number');
    const manifest = JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8'));
    expect(manifest.nodes['model.brightcart.monthly_revenue'].depends_on.nodes).toEqual(['model.brightcart.daily_revenue']);
    expect(manifest.parent_map['model.brightcart.daily_revenue']).toEqual(['seed.brightcart.raw_orders']);
    expect(readFileSync(join(dir, 'target/run/brightcart/models/marts/daily_revenue.sql'), 'utf8')).toMatch(/create table "daily_revenue__mini_dbt_tmp" as/);
    expect(existsSync(join(dir, 'target/compiled/brightcart/models/marts/daily_revenue.sql'))).toBe(true);
  });

  it('running the same command twice gives the same tables', () => {
    const before = tableRows(dir, 'daily_revenue');
    expect(cli('run', '--select', 'daily_revenue', '--vars', '{as_of: "2026-10-31"}').code).toBe(0);
    expect(cli('run', '--select', 'daily_revenue', '--vars', '{as_of: "2026-10-31"}').code).toBe(0);
    expect(tableRows(dir, 'daily_revenue')).toEqual(before);
  });

  it('compile shows both renderings of an incremental model, its window and the statements', () => {
    const r = cli('compile', '--select', 'daily_revenue', '--vars', '{as_of: "2026-10-31", lookback_days: 11}');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/-- full build \(first run or --full-refresh; is_incremental\(\) is false\):\n[\s\S]*where load_date <= '2026-10-31'\n\),/);
    expect(r.stdout).toMatch(/-- incremental run \(is_incremental\(\) is true\):[\s\S]*and order_date between date\('2026-10-31', '-11 days'\) and '2026-10-31'/);
    expect(r.stdout).toMatch(/delete from "daily_revenue"\nwhere "order_date" in \(select distinct "order_date" from temp\."daily_revenue__mini_dbt_new"\)/);
  });

  it('ls lists nodes with selection, resource types and output formats', () => {
    expect(cli('ls', '--resource-type', 'model', 'seed').stdout.trim().split('\n')).toEqual(['brightcart.raw_orders', 'brightcart.marts.daily_revenue', 'brightcart.staging.stg_orders', 'brightcart.marts.monthly_revenue']);
    expect(cli('ls', '--resource-type', 'test', '--output', 'name').stdout.trim().split('\n')).toContain('unique_daily_revenue_order_date');
    // Tests come along with the models they test (dbt's eager indirect selection).
    expect(cli('ls', '-s', 'monthly_revenue', '--output', 'name').stdout.trim().split('\n')).toEqual(['monthly_revenue', 'not_null_monthly_revenue_month', 'unique_monthly_revenue_month']);
    expect(cli('ls', '-s', '+monthly_revenue', '--resource-type', 'model', 'seed', '--output', 'name').stdout.trim().split('\n')).toEqual(['raw_orders', 'daily_revenue', 'monthly_revenue']);
    expect(cli('ls', '-s', 'tag:finance', '--resource-type', 'model', '--output', 'path').stdout.trim().split('\n')).toEqual(['models/marts/daily_revenue.sql', 'models/marts/monthly_revenue.sql']);
    expect(cli('ls', '-s', 'path:models/staging', '--resource-type', 'model').stdout.trim()).toBe('brightcart.staging.stg_orders');
    const json = cli('ls', '-s', 'daily_revenue+', '--exclude', 'monthly_revenue', '--resource-type', 'model', '--output', 'json').stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(json).toEqual([expect.objectContaining({ unique_id: 'model.brightcart.daily_revenue', resource_type: 'model', config: expect.objectContaining({ materialized: 'incremental', unique_key: 'order_date', tags: ['finance'] }) })]);
  });

  it('run --dry-run says what each model would do, including schema drift, and writes nothing to the warehouse', () => {
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const r = cli('run', '--dry-run', '--vars', '{as_of: "2026-10-20"}');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/-- daily_revenue \(models\/marts\/daily_revenue\.sql\): incremental\n-- a run now would: incremental with delete\+insert \(is_incremental\(\): the target exists as a table\)/);
    expect(r.stdout).toMatch(/-- monthly_revenue \(models\/marts\/monthly_revenue\.sql\): table\n-- a run now would: full \(tables are rebuilt on every run\)/);
    expect(r.stdout).toMatch(/delete from "daily_revenue"/);
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  });

  it('--version answers', () => {
    const r = runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('0.1.0');
  });

  // Every read of raw_orders in the statement a run stages must go through an index: the window by
  // order_date, and the as-of (max(load_date), when no as_of var is given) through the load_date index.
  // A min/max over an index not led by load_date shows as "SEARCH ... USING COVERING INDEX" too, but
  // reads the whole index: only the load_date index is allowed for it.
  const WINDOW_READ = /^SEARCH (main\.)?raw_orders USING INDEX raw_orders__idx__order_date__load_date \(order_date>\? AND order_date<\?\)$/;
  const AS_OF_LOOKUP = /^SEARCH (main\.)?raw_orders USING COVERING INDEX raw_orders__idx__load_date$/;
  const rawReads = (vars: string): string[] => {
    const compiled = JSON.parse(cli('compile', '--select', 'daily_revenue', '--json', '--vars', vars).stdout)[0];
    const stage = compiled.plan.statements.find((s: { role?: string }) => s.role === 'stage');
    expect(stage.sql).toMatch(/^create temp table/);
    const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
    try {
      const details = (db.prepare(`explain query plan ${stage.sql}`).all() as { detail: string }[]).map((r) => r.detail);
      return details.filter((d) => /\braw_orders\b/.test(d));
    } finally {
      db.close();
    }
  };

  it.each([
    ['a night with everything landed (no as_of)', '{lookback_days: 11}', 3],
    ['a replayed night (as_of)', '{as_of: "2026-10-31", lookback_days: 11}', 0],
    ['a backfill (start and end)', '{start: "2026-09-03", end: "2026-10-26"}', 1],
  ])('a run reads its window through the seed indexes, not the whole history: %s', (_, vars, asOfLookups) => {
    const reads = rawReads(vars);
    expect(reads.filter((d) => WINDOW_READ.test(d))).toHaveLength(1);
    expect(reads.filter((d) => AS_OF_LOOKUP.test(d))).toHaveLength(asOfLookups);
    expect(reads.filter((d) => !WINDOW_READ.test(d) && !AS_OF_LOOKUP.test(d))).toEqual([]);
  });
});
