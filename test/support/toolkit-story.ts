/**
 * The incremental toolkit on the spec's story (../shared/spec/incremental-story.md),
 * as one body that runs on either engine: the example's feed, a nightly
 * job with lookback 3 from 2026-09-02 to 2026-10-31, then lateness, stale
 * (exact and --fast), explain-order, the lesson's figures, replay, a
 * backfill with a reason, history and docs generate. Every figure is the
 * spec's, to the cent, on both engines.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { backfill, explainOrder, generateDocs, history, lateness, replay, stale } from '../../src/index.js';
import { feedTotals } from '../../src/api/lesson-figures.js';
import { runCli } from './run-cli.js';
import { runNightly, scratchSchemasLeft, toolkitExample, type ToolkitEngine, type ToolkitExample } from './toolkit-example.js';

const FROM = '2026-09-02';
const TO = '2026-10-31';
const REASON = 'refunds landed after the 3-day lookback';
const cents = (v: unknown) => Math.round(Number(v) * 100);

/** The columns' types catalog.json reports for daily_revenue on each engine. */
export const DAILY_REVENUE_TYPES = {
  sqlite: { order_date: 'TEXT', orders: '', delivered_orders: '', revenue: '' },
  pg: { order_date: 'text', orders: 'bigint', delivered_orders: 'bigint', revenue: 'numeric' },
};

export function toolkitStory(engine: () => ToolkitEngine): void {
  let example: ToolkitExample;
  let on: ToolkitEngine;
  const months = () => example.rows<{ month: string; orders: number; revenue: number }>(
    `select substr(cast(order_date as text), 1, 7) as month, sum(orders) as orders, round(sum(revenue), 2) as revenue from daily_revenue group by 1 order by 1`,
  ).map((m) => ({ month: m.month, orders: Number(m.orders), cents: cents(m.revenue) }));
  const day = (d: string) => example.rows<Record<string, unknown>>(`select orders, delivered_orders, revenue from daily_revenue where order_date = ?`, d)
    .map((r) => ({ orders: Number(r.orders), delivered: Number(r.delivered_orders), cents: cents(r.revenue) }))[0];
  const tableRows = () => example.rows(`select order_date, orders, delivered_orders, revenue from daily_revenue order by order_date`).map((r) => JSON.stringify(Object.values(r).map(String)));

  beforeAll(async () => {
    on = engine();
    example = toolkitExample(on);
    await runNightly(example, { from: FROM, to: TO, lookback: 3 });
  }, 300_000);

  it('lateness of raw_orders: 840 on time ... 1 eleven days late; lookback 3 misses 66 rows on 41 days; required 11', () => {
    const report = lateness({ ...example.options, name: 'raw_orders' });
    expect(Object.fromEntries(report.histogram.map((h) => [h.days, h.rows]))).toEqual({ 0: 840, 1: 164, 2: 45, 3: 9, 4: 7, 5: 10, 6: 10, 7: 11, 8: 11, 9: 13, 10: 3, 11: 1 });
    expect(report).toMatchObject({ rows: 1124, max_days: 11, required_lookback: 11, percentiles: { p50: 0, p90: 2, p95: 5, p99: 9, max: 11 } });
    expect(report.missed).toMatchObject({ lookback: 3, rows: 66 });
  });

  it('nightly(3): September 491 orders, 206,459.60; October 541 orders, 222,372.29; 3 September 15 / 15 / 6,991.42', () => {
    expect(months()).toEqual([{ month: '2026-09', orders: 491, cents: 20_645_960 }, { month: '2026-10', orders: 541, cents: 22_237_229 }]);
    expect(day('2026-09-03')).toEqual({ orders: 15, delivered: 15, cents: 699_142 });
  });

  it('stale, exact and --fast: 41 days, 2026-09-03..2026-10-26; 3 September 6,991.42 live, 6,275.22 rebuilt; nothing written', () => {
    const before = tableRows();
    const exact = stale({ ...example.options, model: 'daily_revenue' });
    expect(exact.stale).toHaveLength(41);
    expect([exact.stale[0], exact.stale.at(-1)]).toEqual(['2026-09-03', '2026-10-26']);
    expect(exact.partitions_checked).toBe(61);
    expect(exact.covering_range).toEqual({ start: '2026-09-03', end: '2026-10-26', partitions: 54 });
    const sept3 = exact.partitions.find((d) => d.partition === '2026-09-03') as { live: Record<string, unknown>[]; rebuilt: Record<string, unknown>[] };
    expect([cents(sept3.live[0]!.revenue), cents(sept3.rebuilt[0]!.revenue)]).toEqual([699_142, 627_522]);
    const fast = stale({ ...example.options, model: 'daily_revenue', mode: 'fast' });
    expect(fast.stale).toEqual(exact.stale);
    expect(tableRows()).toEqual(before);
  });

  it('explain-order 50044: delivered on 3 September, refunded 6 days late; the table counts version 1, a full rebuild version 2', () => {
    const r = explainOrder({ ...example.options, orderId: '50044' });
    expect(r).toMatchObject({ source: 'raw_orders', model: 'daily_revenue', partition: '2026-09-03', stale: true });
    expect(r.versions.map((v) => [v.loaded_at, v.values.status, v.days_late])).toEqual([['2026-09-03', 'delivered', 0], ['2026-09-09', 'refunded', 6]]);
    expect(r.table_counts).toMatchObject({ version: 1, run: { as_of: '2026-09-06' } });
    expect(r.full_rebuild_counts).toEqual({ version: 2, as_of: TO });
    expect(r.runs).toHaveLength(61);
  });

  it("the lesson's figures: the 210-row window of 2026-10-20..2026-10-31; the upsert trap's 1,124 orders and 439,004.18", async () => {
    const plan = await backfill({ ...example.options, model: 'daily_revenue', start: '2026-10-20', end: '2026-10-31', dryRun: true });
    expect(plan.ranges[0]).toMatchObject({ start: '2026-10-20', end: '2026-10-31', status: 'planned', rawRows: 210, fullReloadRawRows: 1124 });
    const feed = feedTotals(example.session());
    expect({ rows: feed.rows, orders: feed.orders, upsertOrders: feed.upsertOrders, upsert: cents(feed.upsertRevenue) }).toEqual({ rows: 1124, orders: 1032, upsertOrders: 1124, upsert: 43_900_418 });
  });

  it('replay on a scratch copy: lookback 3 leaves the 41 days stale, lookback 11 none; the live warehouse untouched, no scratch left', async () => {
    const before = tableRows();
    const ledgerBefore = example.rows(`select count(*) as n from _mini_dbt_runs`);
    const result = await replay({ ...example.options, model: 'daily_revenue', from: FROM, to: TO });
    expect(result.final_stale).toHaveLength(41);
    expect(result.worst).toMatchObject({ run_date: '2026-10-30', stale_count: 41 });
    expect(result.required_lookback).toBe(11);
    expect(result.with_required_lookback).toMatchObject({ lookback: 11, final_stale: [], worst: { stale_count: 0 } });
    expect(result.went_stale.find((w) => w.partition === '2026-09-03')).toMatchObject({ night: '2026-09-09' });
    expect(tableRows()).toEqual(before);
    expect(example.rows(`select count(*) as n from _mini_dbt_runs`)).toEqual(ledgerBefore);
    expect(scratchSchemasLeft(example, on)).toEqual([]);
  }, 300_000);

  it('backfill --stale with a reason: the 41 days rewritten as of 2026-10-31, the totals a full rebuild gives (188,483.88 / 211,109.10); history says why', async () => {
    const result = await backfill({ ...example.options, model: 'daily_revenue', stale: true, reason: REASON, select: ['daily_revenue+'], writeArtifacts: false });
    expect(result.exitCode).toBe(0);
    expect(result.asOf).toBe(TO);
    expect(result.ranges.flatMap((r) => r.partitions)).toHaveLength(41);
    expect(months()).toEqual([{ month: '2026-09', orders: 491, cents: 18_848_388 }, { month: '2026-10', orders: 541, cents: 21_110_910 }]);
    expect(day('2026-09-03')).toEqual({ orders: 15, delivered: 14, cents: 627_522 });
    expect(result.downstream).toEqual([{ name: 'monthly_revenue', materialized: 'table', rebuilt: true, stale: false }]);
    expect(example.rows(`select month, revenue from monthly_revenue order by month`).map((m) => [m.month, cents(m.revenue)])).toEqual([['2026-09', 18_848_388], ['2026-10', 21_110_910]]);
    expect(stale({ ...example.options, model: 'daily_revenue' }).stale).toEqual([]);
    const runs = example.rows(`select r.reason, n.mode, n.as_of, n.status from _mini_dbt_runs r join _mini_dbt_node_runs n on n.invocation_id = r.invocation_id where r.command = 'backfill' and n.model = 'daily_revenue'`);
    expect(runs).toEqual([{ reason: REASON, mode: 'backfill', as_of: TO, status: 'success' }]);
    const h = history({ ...example.options, model: 'daily_revenue', partition: '2026-09-17' });
    expect(h.last_written).toMatchObject({ command: 'backfill', run_reason: REASON, as_of: TO, mode: 'backfill' });
  });

  it('the CLI says the same on either engine: lateness, stale --fast, history and explain-order after the backfill', () => {
    const cli = (...args: string[]) => {
      const r = runCli([...args, '--project-dir', example.dir, ...(example.options.target ? ['--profile', example.options.profile!, '--target', example.options.target] : [])]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return r.stdout;
    };
    const late = cli('lateness', 'raw_orders');
    expect(late).toMatch(/^ +0 +840 +█{40}$/m);
    expect(late).toMatch(/percentiles \(days late\): p50 0 {2}p90 2 {2}p95 5 {2}p99 9 {2}max 11/);
    expect(late).toMatch(/a lookback of 3 day\(s\) misses 66 row\(s\) \(5\.9% of rows\) on 41 day\(s\)/);
    expect(cli('stale', 'daily_revenue', '--fast')).toMatch(/^daily_revenue: 0 of 61 partitions stale \(fast: from the run ledger and the raw rows landed by 2026-10-31; nothing rebuilt\)$/m);
    expect(cli('history', 'daily_revenue', '--partition', '2026-09-17')).toMatch(/^ {2}why: refunds landed after the 3-day lookback; mode: is_incremental\(\) with start\/end vars/m);
    const order = cli('explain-order', '50044');
    expect(order).toContain('2  2026-09-09           6  refunded   716.2');
    expect(order).toContain('the table agrees with a full rebuild for order_id 50044');
  });

  it("docs generate: catalog.json lists the relations with the engine's column types; the site data has the models", async () => {
    const docs = await generateDocs({ ...example.options, replay: false });
    const catalog = JSON.parse(readFileSync(join(example.dir, 'target', 'catalog.json'), 'utf8'));
    const node = catalog.nodes['model.brightcart.daily_revenue'];
    const expected = on.kind === 'pg' ? { database: on.target.database, schema: on.target.schema } : { database: 'main', schema: 'main' };
    expect(node.metadata).toMatchObject({ type: 'table', name: 'daily_revenue', ...expected });
    const types = Object.fromEntries(Object.values(node.columns as Record<string, { name: string; type: string }>).map((c) => [c.name, c.type]));
    if (on.kind === 'pg') expect(types).toEqual(DAILY_REVENUE_TYPES.pg);
    else expect(Object.keys(types)).toEqual(Object.keys(DAILY_REVENUE_TYPES.sqlite));
    expect(Object.keys(catalog.nodes)).toEqual(expect.arrayContaining(['model.brightcart.daily_revenue', 'model.brightcart.monthly_revenue', 'seed.brightcart.raw_orders']));
    expect(docs.site.nodes.map((n: { name: string }) => n.name)).toEqual(expect.arrayContaining(['daily_revenue', 'monthly_revenue', 'raw_orders']));
    // The model's page, from the run ledger: its last build (the backfill), each day's last write and why, nothing stale.
    const page = docs.site.nodes.find((n) => n.name === 'daily_revenue')!;
    expect(page.lastRun).toMatchObject({ status: 'success', mode: 'backfill', rowsDeleted: 41, rowsInserted: 41 });
    expect(page.partitions).toHaveLength(61);
    expect(page.partitions!.find((p) => p.partition === '2026-09-17')).toMatchObject({ mode: 'backfill', runReason: REASON, asOf: TO });
    expect(page.partitions!.find((p) => p.partition === '2026-09-16')).toMatchObject({ mode: 'incremental', runReason: null, asOf: '2026-09-19' });
    expect(page.stale).toMatchObject({ asOf: TO, partitions: [] });
  });
}
