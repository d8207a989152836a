import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backfill, history, stale } from '../../src/index.js';
import { addDays, dateRange, daysBetween } from '../../src/feed/iso-date.js';
import { costReason } from '../../src/analysis/backfill-cost.js';
import { nightlyPlaybook, PLAYBOOK_LOOKBACK, PLAYBOOK_ROWS, type PlaybookRow } from '../support/playbook-project.js';
import { tableRows } from '../support/warehouse-rows.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const REASON = 'refunds landed after the 1-day lookback';
/** A data test on the model: during a backfill every test of the model audits the publish. */
const NO_NEGATIVE = { 'tests/no_negative_revenue.sql': "select * from {{ ref('daily_revenue') }} where revenue < 0\n" };

/** Plain arithmetic over the rows: a day's orders and revenue counting the rows landed by `asOf` (latest version wins). */
function dayAsOf(rows: readonly PlaybookRow[], day: string, asOf: string): { orders: number; revenue: number } | undefined {
  const latest = new Map<number, PlaybookRow>();
  for (const r of rows) if (r.load_date <= asOf && (latest.get(r.order_id)?.load_date ?? '') <= r.load_date) latest.set(r.order_id, r);
  const versions = [...latest.values()].filter((v) => v.order_date === day);
  if (versions.length === 0) return undefined;
  return { orders: versions.length, revenue: versions.filter((v) => v.status === 'delivered').reduce((s, v) => s + v.amount, 0) };
}

/** What the nightly job left for a day: written last on the night min(day + lookback, last night), as of that night. */
function nightlyValue(rows: readonly PlaybookRow[], day: string) {
  const last = rows[rows.length - 1]!.load_date;
  const night = addDays(day, PLAYBOOK_LOOKBACK) < last ? addDays(day, PLAYBOOK_LOOKBACK) : last;
  return dayAsOf(rows, day, night);
}

const LAST = PLAYBOOK_ROWS[PLAYBOOK_ROWS.length - 1]!.load_date;
const DAYS = dateRange(PLAYBOOK_ROWS[0]!.order_date, LAST);
const STALE = DAYS.filter((d) => JSON.stringify(nightlyValue(PLAYBOOK_ROWS, d)) !== JSON.stringify(dayAsOf(PLAYBOOK_ROWS, d, LAST)));

function table(dir: string): Map<string, { orders: number; revenue: number }> {
  return new Map(tableRows(dir, 'daily_revenue').map((r) => [String(r.order_date), { orders: Number(r.orders), revenue: Number(r.revenue) }]));
}

function ledger(dir: string, sql: string): Record<string, unknown>[] {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('the backfill playbook on a hand-made feed', () => {
  it('the fixture: three disjoint stale days after the nightly job', () => {
    expect(STALE).toEqual(['2026-01-01', '2026-01-03', '2026-01-05']);
  });

  it('--dry-run predicts the change per partition and in total, the cost against a full rebuild and why; nothing is written', async () => {
    const { dir } = await nightlyPlaybook();
    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    const r = await backfill({ projectDir: dir, model: 'daily_revenue', stale: true, dryRun: true });
    expect(r.ranges.map((x) => [x.start, x.end])).toEqual(STALE.map((d) => [d, d]));
    // Per partition: live (what the nightly job left) -> what the backfill writes (everything landed).
    expect(r.changes!.partitions.map((p) => [p.partition, p.live[0]!.revenue, p.rebuilt[0]!.revenue])).toEqual(
      STALE.map((d) => [d, nightlyValue(PLAYBOOK_ROWS, d)!.revenue, dayAsOf(PLAYBOOK_ROWS, d, LAST)!.revenue]),
    );
    const sum = (f: (d: string) => number) => STALE.reduce((s, d) => s + f(d), 0);
    expect(r.changes!.totals.live.sums.revenue).toBe(sum((d) => nightlyValue(PLAYBOOK_ROWS, d)!.revenue));
    expect(r.changes!.totals.after.sums.revenue).toBe(sum((d) => dayAsOf(PLAYBOOK_ROWS, d, LAST)!.revenue));
    expect(r.changes!.totals).toMatchObject({ live: { rows: 3, sums: { revenue: 130 } }, after: { rows: 3, sums: { revenue: 20 } } });
    // Cost: the raw rows of the three days against every raw row; the reason from range days / history days.
    const rawInDays = PLAYBOOK_ROWS.filter((x) => STALE.includes(x.order_date)).length;
    expect(r.cost).toMatchObject({ rawRows: rawInDays, fullRebuildRawRows: PLAYBOOK_ROWS.length, rangeDays: 3, historyStart: '2026-01-01', historyEnd: LAST, historyDays: DAYS.length });
    expect(r.cost!.percent).toBeCloseTo((100 * rawInDays) / PLAYBOOK_ROWS.length, 6);
    expect(r.cost!.reason).toBe(`the 3 ranges are 3 of the 10 day(s) of history (30%): a large part of the history; it reads 50% of the raw rows`);
    expect(r.checks).toEqual([
      { name: 'order_date not null', status: 'pass' },
      { name: 'order_date unique', status: 'pass' },
      { name: 'order_date within the 3 ranges in 2026-01-01..2026-01-05', status: 'pass' },
    ]);
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);
  });

  it('the cost reason follows range days / history days: most of a short history, a small part of a long one', async () => {
    const { dir } = await nightlyPlaybook();
    const share = (last: string) => (100 * PLAYBOOK_ROWS.filter((r) => r.order_date <= last).length) / PLAYBOOK_ROWS.length;
    const most = await backfill({ projectDir: dir, model: 'daily_revenue', start: '2026-01-01', end: '2026-01-09', dryRun: true });
    expect(most.cost!.reason).toBe(`the range is 9 of the 10 day(s) of history (90%): most of the history, so a backfill costs nearly a full rebuild; it reads ${share('2026-01-09').toFixed(0)}% of the raw rows`);
    const one = await backfill({ projectDir: dir, model: 'daily_revenue', start: '2026-01-01', end: '2026-01-01', dryRun: true });
    expect(one.cost!.reason).toBe(`the range is 1 of the 10 day(s) of history (10%): a small part of the history, so a backfill costs a fraction of a full rebuild; it reads ${share('2026-01-01').toFixed(0)}% of the raw rows`);
    // The example's two shapes: 54 of 61 days (two months) and 54 of 1,096 (three years).
    expect(costReason(54, 61, 89.2)).toMatch(/54 of the 61 day\(s\) of history \(89%\): most of the history/);
    expect(costReason(54, 1096, 4.6)).toMatch(/54 of the 1096 day\(s\) of history \(4\.9%\): a small part of the history.*reads 4\.6% of the raw rows/);
  });

  it('--stale publishes its three ranges in one transaction, one ledger run, every check and audit PASS', async () => {
    const { dir } = await nightlyPlaybook(PLAYBOOK_ROWS, NO_NEGATIVE);
    const before = table(dir);
    const r = await backfill({ projectDir: dir, model: 'daily_revenue', stale: true, reason: REASON, writeArtifacts: false });
    expect(r.exitCode).toBe(0);
    expect(r.runs).toHaveLength(1);
    expect(r.ranges.map((x) => [x.start, x.status, x.partitions])).toEqual(STALE.map((d) => [d, 'success', [d]]));
    expect(r.checks.map((c) => `${c.status} ${c.name}`)).toEqual([
      'pass order_date not null', 'pass order_date unique', 'pass order_date within the 3 ranges in 2026-01-01..2026-01-05', 'pass audit no_negative_revenue',
    ]);
    const after = table(dir);
    for (const d of DAYS) expect(after.get(d), d).toEqual(STALE.includes(d) ? dayAsOf(PLAYBOOK_ROWS, d, LAST) : before.get(d));
    const runs = ledger(dir, "select r.reason, r.status, n.mode, n.as_of from _mini_dbt_runs r join _mini_dbt_node_runs n using (invocation_id) where r.command = 'backfill'");
    expect(runs).toEqual([{ reason: REASON, status: 'success', mode: 'backfill', as_of: LAST }]);
    expect(ledger(dir, "select p.partition from _mini_dbt_partitions p join _mini_dbt_runs r using (invocation_id) where r.command = 'backfill' order by 1").map((x) => x.partition)).toEqual(STALE);
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual([]);
    expect(history({ projectDir: dir, model: 'daily_revenue', partition: '2026-01-03' }).last_written).toMatchObject({ command: 'backfill', run_reason: REASON, as_of: LAST });
  });

  it('a failure in the last range (an audit after the insert) leaves every range exactly as it was', async () => {
    // Order 6's late version is a negative delivered amount instead of a refund: only 2026-01-05, the last range, goes negative.
    const rows = PLAYBOOK_ROWS.map((r) => (r.order_id === 6 && r.status === 'refunded' ? { ...r, status: 'delivered', amount: -60 } : r));
    const { dir } = await nightlyPlaybook(rows, NO_NEGATIVE);
    const stalePartitions = stale({ projectDir: dir, model: 'daily_revenue' }).stale;
    expect(stalePartitions).toEqual(STALE);
    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    const r = await backfill({ projectDir: dir, model: 'daily_revenue', stale: true, reason: REASON, writeArtifacts: false });
    expect(r.exitCode).toBe(1);
    expect(r.ranges.every((x) => x.status === 'error' && x.after === null)).toBe(true);
    expect(r.ranges[0]!.message).toMatch(/audit no_negative_revenue failed before publish: 1 failing row/);
    expect(r.checks.map((c) => `${c.status} ${c.name}`)).toEqual([
      'pass order_date not null', 'pass order_date unique', 'pass order_date within the 3 ranges in 2026-01-01..2026-01-05', 'fail audit no_negative_revenue',
    ]);
    // Same rows in every table; the ledger only gained the failed attempt (no partition written).
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual(STALE);
    expect(ledger(dir, "select count(*) as n from _mini_dbt_partitions p join _mini_dbt_runs r using (invocation_id) where r.command = 'backfill'")).toEqual([{ n: 0 }]);
    expect(ledger(dir, "select status from _mini_dbt_runs where command = 'backfill'")).toEqual([{ status: 'error' }]);
  });

  it('--keys rewrites the days of those orders (an order whose date moved: from its old day to its new one), with a reason', async () => {
    // Order 3 is re-dated from 2026-01-02 to 2026-01-04 on the last night: both days change.
    const rows = [...PLAYBOOK_ROWS, { load_date: LAST, order_id: 3, order_date: '2026-01-04', status: 'delivered', amount: 30 }];
    const { dir } = await nightlyPlaybook(rows);
    const before = table(dir);
    // Order 3 alone: one range over both its days (the model sees its new version only when one range holds both).
    const moved = await backfill({ projectDir: dir, model: 'daily_revenue', keys: ['3'], dryRun: true });
    expect(moved.ranges.map((x) => [x.start, x.end])).toEqual([['2026-01-02', '2026-01-04']]);
    expect(moved.changes!.partitions.map((p) => [p.partition, p.live.length, p.rebuilt.length])).toEqual([['2026-01-02', 1, 0], ['2026-01-03', 1, 1], ['2026-01-04', 1, 1]]);
    const r = await backfill({ projectDir: dir, model: 'daily_revenue', keys: ['4', '3'], reason: 'order 4 refunded, order 3 re-dated', writeArtifacts: false });
    expect(r.exitCode).toBe(0);
    expect(r.keys).toEqual({ inputs: ['raw_orders'], keyColumn: 'order_id', keys: [{ key: '4', partitions: ['2026-01-03'] }, { key: '3', partitions: ['2026-01-02', '2026-01-04'] }], partitions: ['2026-01-02', '2026-01-03', '2026-01-04'] });
    expect(r.ranges.map((x) => [x.start, x.end])).toEqual([['2026-01-02', '2026-01-04']]);
    const after = table(dir);
    for (const d of DAYS) expect(after.get(d), d).toEqual(['2026-01-02', '2026-01-03', '2026-01-04'].includes(d) ? dayAsOf(rows, d, LAST) : before.get(d));
    expect(after.has('2026-01-02')).toBe(false); // its only order moved away: the day is emptied, not left with its old row
    // 2026-01-01 and 2026-01-05 were not asked for: still stale.
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual(['2026-01-01', '2026-01-05']);
    expect(ledger(dir, "select reason from _mini_dbt_runs where command = 'backfill'")).toEqual([{ reason: 'order 4 refunded, order 3 re-dated' }]);

    // Disjoint days: two ranges, one transaction.
    const two = await backfill({ projectDir: dir, model: 'daily_revenue', keys: ['1', '6'], keyColumn: 'order_id', dryRun: true });
    expect(two.ranges.map((x) => x.start)).toEqual(['2026-01-01', '2026-01-05']);
    expect(two.changes!.partitions.map((p) => p.partition)).toEqual(['2026-01-01', '2026-01-05']);

    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    const refusals: [Partial<Parameters<typeof backfill>[0]>, RegExp][] = [
      [{ keys: ['4', '999'], keyColumn: 'order_id' }, /no row of 'raw_orders' has order_id 999 \(landed by 2026-01-10\); nothing was written/],
      [{ keys: ['4'], keyColumn: 'order_i' }, /--key-column 'order_i' is not a column of 'raw_orders', the raw input of 'daily_revenue'\. Did you mean 'order_id'\?/],

      [{ keys: ['4'], keyColumn: 'order_id', start: '2026-01-01', end: '2026-01-02' }, /give one of --start\/--end, --stale or --keys, not --start\/--end and --keys/],
      [{ start: '2026-01-01', end: '2026-01-02', keyColumn: 'order_id' }, /--key-column goes with --keys/],
    ];
    for (const [extra, message] of refusals) {
      await expect(backfill({ projectDir: dir, model: 'daily_revenue', reason: 'x', ...extra })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
    }
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);
  });

  it('stale says which recent days are not final yet: day + the longest lateness landed by the as-of', async () => {
    const { dir } = await nightlyPlaybook();
    const longest = (asOf: string) => Math.max(0, ...PLAYBOOK_ROWS.filter((r) => r.load_date <= asOf).map((r) => daysBetween(r.order_date, r.load_date)));
    for (const asOf of [LAST, '2026-01-07', '2026-01-05']) {
      const report = stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast', vars: { as_of: asOf } });
      const m = longest(asOf);
      const days = m === 0 ? [] : dateRange(addDays(asOf, 1 - m), asOf);
      expect(report.not_final, asOf).toEqual({
        as_of: asOf,
        longest_lateness_days: m,
        inputs: ['raw_orders'],
        partitions: days.map((d) => ({ partition: d, final_after: addDays(d, m) })),
        partitions_not_listed: 0,
        months: days.length === 0 ? [] : [{ month: '2026-01', final_after: addDays('2026-01-31', m) }],
      });
    }
    expect(longest(LAST)).toBe(5);
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).not_final!.months).toEqual([{ month: '2026-01', final_after: '2026-02-05' }]);
  });
});
