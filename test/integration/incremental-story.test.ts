import { describe, expect, it } from 'vitest';
import { loadSession, run, type Session } from '../../src/index.js';
import { generateFeed, type FeedRow } from '../../src/feed/generate-feed.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import { exampleProject } from '../support/example-project.js';
import { fullRebuild, maxLateness, replayNightly, staleDays } from '../support/revenue-oracle.js';
import { asPlain, dailyRevenue } from '../support/warehouse-rows.js';

const FROM = '2026-09-02';
const TO = '2026-10-31';

async function runOk(session: Session, vars: Record<string, unknown>, extra: { fullRefresh?: boolean; select?: string[] } = {}) {
  const result = await run({ session, vars, select: extra.select ?? ['daily_revenue'], fullRefresh: extra.fullRefresh, writeArtifacts: false });
  expect(result.results.map((r) => r.message).filter((m, i) => result.results[i]!.status !== 'success')).toEqual([]);
  return result;
}

/** Seed, full build as of the day before FROM, then one incremental run a night through TO. */
async function replayThroughTool(
  feed: readonly FeedRow[],
  lookback: number,
  afterNight: (night: string, dir: string) => void = () => undefined,
): Promise<{ dir: string; session: Session }> {
  const dir = exampleProject(feed);
  const session = loadSession({ projectDir: dir });
  await run({ session, command: 'seed', writeArtifacts: false });
  await runOk(session, { as_of: addDays(FROM, -1) }, { fullRefresh: true });
  for (const night of dateRange(FROM, TO)) {
    await runOk(session, { as_of: night, lookback_days: lookback });
    afterNight(night, dir);
  }
  return { dir, session };
}

describe.each([
  { seed: 2026, name: 'reference feed' },
  { seed: 2027, name: 'second feed' },
])('the Brightcart story on the $name (seed $seed)', ({ seed }) => {
  const feed = generateFeed({ seed });
  const truth = fullRebuild(feed, TO);

  it('lookback 3: the table equals the oracle replay night by night, and the late days are stale', async () => {
    const oracle = replayNightly(feed, { from: FROM, to: TO, lookback: 3 });
    const seen: { run_date: string; stale: string[] }[] = [];
    const { dir, session } = await replayThroughTool(feed, 3, (night, d) => {
      seen.push({ run_date: night, stale: staleDays(dailyRevenue(d), fullRebuild(feed, night)) });
    });
    // Every night, the days that differ from a full rebuild as of that night match the oracle.
    expect(seen).toEqual(oracle.nights);
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(oracle.table));
    const stale = staleDays(dailyRevenue(dir), truth);
    expect(stale).toEqual(oracle.finalStale);
    expect(stale.length).toBeGreaterThan(0);
    if (seed === 2026) {
      expect(stale).toHaveLength(41);
      expect(stale[0]).toBe('2026-09-03');
      expect(stale.at(-1)).toBe('2026-10-26');
    }

    // One backfill of the stale range, with everything landed by the last night, repairs it.
    await runOk(session, { start: stale[0], end: stale.at(-1) });
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(truth));
  });

  it('with the required lookback (the longest lateness) nothing goes stale', async () => {
    const required = maxLateness(feed);
    expect(required).toBe(seed === 2026 ? 11 : 14);
    const { dir } = await replayThroughTool(feed, required);
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(truth));
  });
});

describe('hand-made feeds', () => {
  const row = (load_date: string, order_id: number, order_date: string, status: FeedRow['status'], amount: string): FeedRow => ({ load_date, order_id, order_date, status, amount });

  async function nightly(feed: FeedRow[], from: string, to: string, lookback: number) {
    const dir = exampleProject(feed);
    const session = loadSession({ projectDir: dir });
    await run({ session, command: 'seed', writeArtifacts: false });
    await runOk(session, { as_of: addDays(from, -1) }, { fullRefresh: true });
    for (const night of dateRange(from, to)) await runOk(session, { as_of: night, lookback_days: lookback });
    return { dir, session };
  }

  it('an empty feed builds an empty table and nightly runs keep it empty', async () => {
    const { dir } = await nightly([], '2026-09-02', '2026-09-05', 3);
    expect(dailyRevenue(dir).size).toBe(0);
  });

  it('a refund exactly lookback_days late is caught; one day later is missed', async () => {
    const feed = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'),
      row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'),
      row('2026-09-04', 1, '2026-09-01', 'refunded', '10.00'), // 3 days late: caught by lookback 3
      row('2026-09-06', 2, '2026-09-02', 'refunded', '20.00'), // 4 days late: missed
    ];
    const { dir } = await nightly(feed, '2026-09-02', '2026-09-08', 3);
    const table = dailyRevenue(dir);
    expect(table.get('2026-09-01')).toEqual({ order_date: '2026-09-01', orders: 1, delivered_orders: 0, revenue: 0 });
    expect(table.get('2026-09-02')).toEqual({ order_date: '2026-09-02', orders: 1, delivered_orders: 1, revenue: 20 });
    expect(staleDays(table, fullRebuild(feed))).toEqual(['2026-09-02']);
  });

  it('a day whose only order is cancelled has revenue 0, not NULL', async () => {
    const feed = [row('2026-09-01', 1, '2026-09-01', 'delivered', '12.34'), row('2026-09-02', 2, '2026-09-02', 'cancelled', '50.00')];
    const { dir } = await nightly(feed, '2026-09-02', '2026-09-02', 3);
    expect(dailyRevenue(dir).get('2026-09-02')).toEqual({ order_date: '2026-09-02', orders: 1, delivered_orders: 0, revenue: 0 });
  });

  it('a refund outside every window stays stale until a backfill fixes exactly that day', async () => {
    const feed = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'),
      row('2026-09-02', 2, '2026-09-02', 'delivered', '15.50'),
      row('2026-09-03', 3, '2026-09-03', 'delivered', '7.25'),
      row('2026-09-20', 1, '2026-09-01', 'refunded', '10.00'),
    ];
    const { dir, session } = await nightly(feed, '2026-09-02', '2026-09-20', 3);
    expect(staleDays(dailyRevenue(dir), fullRebuild(feed))).toEqual(['2026-09-01']);
    const before = dailyRevenue(dir);
    // A one-day backfill leaves every other day alone.
    const result = await runOk(session, { start: '2026-09-01', end: '2026-09-01' });
    expect(result.results[0]!.partitions).toEqual(['2026-09-01']);
    const after = dailyRevenue(dir);
    expect(after.get('2026-09-01')!.revenue).toBe(0);
    for (const day of ['2026-09-02', '2026-09-03']) expect(after.get(day)).toEqual(before.get(day));
    expect(asPlain(after)).toEqual(asPlain(fullRebuild(feed)));
  });

  it('the same night run twice gives an identical table', async () => {
    const feed = generateFeed();
    const dir = exampleProject(feed);
    const session = loadSession({ projectDir: dir });
    await run({ session, command: 'seed', writeArtifacts: false });
    await runOk(session, { as_of: '2026-10-01' }, { fullRefresh: true });
    await runOk(session, { as_of: '2026-10-02' });
    const once = asPlain(dailyRevenue(dir));
    await runOk(session, { as_of: '2026-10-02' });
    expect(asPlain(dailyRevenue(dir))).toEqual(once);
    expect(once).toEqual(asPlain(replayNightly(feed, { from: '2026-10-02', to: '2026-10-02', lookback: 3 }).table));
  });
});
