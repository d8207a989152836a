import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stale } from '../../src/index.js';
import { generateFeed, type FeedRow } from '../../src/feed/generate-feed.js';
import { fullRebuild, replayNightly } from '../support/revenue-oracle.js';
import { nightlyProject } from '../support/nightly-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';
import { dailyRevenue, asPlain } from '../support/warehouse-rows.js';
import { staleDays } from '../support/revenue-oracle.js';

const FROM = '2026-09-02';
const TO = '2026-10-31';

describe.each([
  { seed: 2026, name: 'reference feed' },
  { seed: 2027, name: 'second feed (max lateness 14)' },
])('stale after a lookback-3 nightly job, $name', ({ seed }) => {
  const feed = generateFeed({ seed });
  const oracle = replayNightly(feed, { from: FROM, to: TO, lookback: 3 });
  let dir: string;
  beforeAll(async () => {
    ({ dir } = await nightlyProject(seed === 2026 ? undefined : feed, { from: FROM, to: TO, lookback: 3 }));
    // The tool's table is the oracle's nightly table.
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(oracle.table));
  });

  it('exact mode lists exactly the days that differ from the oracle full rebuild, and never writes', () => {
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const report = stale({ projectDir: dir, model: 'daily_revenue' });
    expect(report.stale).toEqual(oracle.finalStale);
    expect(report.stale).toEqual(staleDays(dailyRevenue(dir), fullRebuild(feed)));
    expect(report.partitions_checked).toBe(61);
    if (seed === 2026) {
      expect(report.stale).toHaveLength(41);
      expect(report.stale[0]).toBe('2026-09-03');
      expect(report.stale.at(-1)).toBe('2026-10-26');
      expect(report.covering_range).toEqual({ start: '2026-09-03', end: '2026-10-26', partitions: 54 });
      expect(report.ranges).toHaveLength(11);
    }
    // The ranges cover exactly the stale days.
    const covered = report.ranges.flatMap((r) => report.stale.filter((d) => d >= r.start && d <= r.end));
    expect(covered).toEqual(report.stale);
    // Live vs rebuilt values per partition come from the table and the oracle.
    const truth = fullRebuild(feed);
    for (const p of report.partitions as { partition: string; live: Record<string, unknown>[]; rebuilt: Record<string, unknown>[] }[]) {
      expect(p.rebuilt).toEqual([truth.get(p.partition)]);
      expect(p.live).toEqual([oracle.table.get(p.partition)]);
    }
    expect(report.backfill_command).toBe('mini-dbt backfill daily_revenue --stale --reason "<why>"');
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  });

  it('fast mode (ledger + raw rows) agrees with exact mode', () => {
    const fast = stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast' });
    expect(fast.stale).toEqual(oracle.finalStale);
    expect(fast.ranges).toEqual(stale({ projectDir: dir, model: 'daily_revenue' }).ranges);
  });

  it('as of an earlier night both modes agree with the oracle at that night', () => {
    for (const asOf of ['2026-09-20', '2026-10-10']) {
      // Days the table has but a rebuild as of that night does not (written later) count as stale too.
      const expected = staleDays(dailyRevenue(dir), fullRebuild(feed, asOf));
      expect(expected.some((d) => d <= asOf)).toBe(true);
      const exact = stale({ projectDir: dir, model: 'daily_revenue', vars: { as_of: asOf } });
      expect(exact.stale).toEqual(expected);
      expect(stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast', vars: { as_of: asOf } }).stale).toEqual(expected);
    }
  });
});

describe('stale on hand-made feeds and through the CLI', () => {
  const row = (load_date: string, order_id: number, order_date: string, status: FeedRow['status'], amount: string): FeedRow => ({ load_date, order_id, order_date, status, amount });

  it('no late rows: nothing stale in either mode', async () => {
    const feed = [row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'), row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'), row('2026-09-03', 3, '2026-09-03', 'cancelled', '5.00')];
    const { dir } = await nightlyProject(feed, { from: '2026-09-02', to: '2026-09-05', lookback: 3 });
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual([]);
    expect(stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast' }).stale).toEqual([]);
  });

  it('a refund exactly at the lookback is not stale; one day later is, in both modes', async () => {
    const feed = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'),
      row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'),
      row('2026-09-04', 1, '2026-09-01', 'refunded', '10.00'), // exactly 3 days late
      row('2026-09-06', 2, '2026-09-02', 'refunded', '20.00'), // 4 days late
    ];
    const { dir } = await nightlyProject(feed, { from: '2026-09-02', to: '2026-09-08', lookback: 3 });
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual(['2026-09-02']);
    expect(stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast' }).stale).toEqual(['2026-09-02']);
  });

  it('a refund landing after the last night run is stale against everything landed', async () => {
    const feed = [row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'), row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'), row('2026-09-09', 2, '2026-09-02', 'refunded', '20.00')];
    const { dir } = await nightlyProject(feed, { from: '2026-09-02', to: '2026-09-04', lookback: 3 });
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual(['2026-09-02']);
    expect(stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast' }).stale).toEqual(['2026-09-02']);
    // ...but not as of the last night that ran.
    expect(stale({ projectDir: dir, model: 'daily_revenue', vars: { as_of: '2026-09-04' } }).stale).toEqual([]);
    expect(stale({ projectDir: dir, model: 'daily_revenue', mode: 'fast', vars: { as_of: '2026-09-04' } }).stale).toEqual([]);

    const json = runCli(['stale', 'daily_revenue', '--json', '--project-dir', dir]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({ model: 'daily_revenue', mode: 'exact', stale: ['2026-09-02'], ranges: [{ start: '2026-09-02', end: '2026-09-02' }] });
    const text = runCli(['stale', 'daily_revenue', '--fast', '--project-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/daily_revenue: 1 of 2 partitions stale \(fast/);
    expect(text.stdout).toMatch(/2026-09-02 {2}2026-09-04 +1 {3}2026-09-09/);

    // --fail-on-stale: exit 1 when anything is stale (a scheduler alerts on it), 0 when nothing is.
    expect(runCli(['stale', 'daily_revenue', '--fast', '--fail-on-stale', '--project-dir', dir]).code).toBe(1);
    expect(runCli(['stale', 'daily_revenue', '--json', '--fail-on-stale', '--project-dir', dir]).code).toBe(1);
    expect(runCli(['stale', 'daily_revenue', '--fail-on-stale', '--vars', '{as_of: "2026-09-04"}', '--project-dir', dir]).code).toBe(0);

    const typo = runCli(['stale', 'daily_revenu', '--project-dir', dir]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/no model named 'daily_revenu'\. Did you mean 'daily_revenue'\?/);
    const badDate = runCli(['stale', 'daily_revenue', '--vars', `{as_of: "2026-09-01'; DROP TABLE x; --"}`, '--project-dir', dir]);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toMatch(/var 'as_of' must be a (real )?date/);
  });
});
