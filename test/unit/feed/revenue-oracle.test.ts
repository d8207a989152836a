import { describe, expect, it } from 'vitest';
import { generateFeed, type FeedRow } from '../../../src/feed/generate-feed.js';
import { dateRange, dayOfWeek, daysBetween } from '../../../src/feed/iso-date.js';
import {
  fullRebuild,
  maxLateness,
  replayNightly,
  rewriteDays,
  staleDays,
  type DayRevenue,
} from '../../support/revenue-oracle.js';

function row(load_date: string, order_id: number, order_date: string, status: FeedRow['status'], amount: string): FeedRow {
  return { load_date, order_id, order_date, status, amount };
}

function day(order_date: string, orders: number, delivered_orders: number, revenue: number): DayRevenue {
  return { order_date, orders, delivered_orders, revenue };
}

describe('fullRebuild', () => {
  it('lets the latest version of an order win', () => {
    const rows = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'),
      row('2026-09-01', 2, '2026-09-01', 'delivered', '20.50'),
      row('2026-09-03', 1, '2026-09-01', 'refunded', '10.00'),
    ];
    expect([...fullRebuild(rows).values()]).toEqual([day('2026-09-01', 2, 1, 20.5)]);
    expect([...fullRebuild(rows, '2026-09-02').values()]).toEqual([day('2026-09-01', 2, 2, 30.5)]);
  });

  it('gives revenue 0, not null, on a day whose only order is cancelled', () => {
    const rows = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '12.00'),
      row('2026-09-02', 2, '2026-09-02', 'cancelled', '99.99'),
    ];
    expect(fullRebuild(rows).get('2026-09-02')).toEqual(day('2026-09-02', 1, 0, 0));
  });

  it('sums in integer cents', () => {
    const rows = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '0.10'),
      row('2026-09-01', 2, '2026-09-01', 'delivered', '0.20'),
      row('2026-09-01', 3, '2026-09-01', 'delivered', '5.7'),
    ];
    expect(fullRebuild(rows).get('2026-09-01')!.revenue).toBe(6);
    expect(fullRebuild(rows.slice(0, 2)).get('2026-09-01')!.revenue).toBe(0.3);
  });

  it('is keyed and sorted by order_date, and ignores rows landed after asOf', () => {
    const rows = [
      row('2026-09-05', 3, '2026-09-05', 'delivered', '5.00'),
      row('2026-09-02', 2, '2026-09-02', 'delivered', '5.00'),
      row('2026-09-03', 1, '2026-09-01', 'delivered', '5.00'),
    ];
    expect([...fullRebuild(rows).keys()]).toEqual(['2026-09-01', '2026-09-02', '2026-09-05']);
    expect([...fullRebuild(rows, '2026-09-02').keys()]).toEqual(['2026-09-02']);
  });

  it('gives an empty table for an empty feed', () => {
    expect(fullRebuild([]).size).toBe(0);
    expect(maxLateness([])).toBe(0);
  });
});

describe('rewriteDays', () => {
  const rows = [
    row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'),
    row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'),
    row('2026-09-03', 3, '2026-09-03', 'delivered', '30.00'),
    row('2026-09-04', 1, '2026-09-01', 'refunded', '10.00'),
  ];

  it('recomputes only the window, as of the given night, without touching the input', () => {
    const before = fullRebuild(rows, '2026-09-03');
    const snapshot = structuredClone(before);
    const after = rewriteDays(before, rows, '2026-09-04', '2026-09-02', '2026-09-04');
    expect(before).toEqual(snapshot);
    expect(after.get('2026-09-01')).toEqual(day('2026-09-01', 1, 1, 10)); // outside the window: kept
    expect(staleDays(after, fullRebuild(rows))).toEqual(['2026-09-01']);
    const fixed = rewriteDays(after, rows, '2026-09-04', '2026-09-01', '2026-09-01');
    expect(staleDays(fixed, fullRebuild(rows))).toEqual([]);
  });

  it('keeps a day that has no rows in the window (delete+insert) and inserts new days', () => {
    const table = new Map([['2026-08-31', day('2026-08-31', 7, 7, 70)]]);
    const out = rewriteDays(table, rows, '2026-09-02', '2026-08-31', '2026-09-02');
    expect([...out.keys()]).toEqual(['2026-08-31', '2026-09-01', '2026-09-02']);
    expect(out.get('2026-08-31')).toEqual(day('2026-08-31', 7, 7, 70));
  });

  it('is idempotent: the same night twice gives the same table', () => {
    const once = rewriteDays(fullRebuild(rows, '2026-09-01'), rows, '2026-09-04', '2026-09-01', '2026-09-04');
    expect(rewriteDays(once, rows, '2026-09-04', '2026-09-01', '2026-09-04')).toEqual(once);
  });
});

describe('staleDays', () => {
  it('reports differing, missing and extra days, sorted', () => {
    const truth = new Map([
      ['2026-09-01', day('2026-09-01', 1, 1, 10)],
      ['2026-09-02', day('2026-09-02', 1, 1, 20)],
      ['2026-09-03', day('2026-09-03', 1, 1, 30)],
    ]);
    const table = new Map([
      ['2026-09-04', day('2026-09-04', 1, 1, 40)],
      ['2026-09-02', day('2026-09-02', 1, 1, 20.01)],
      ['2026-09-01', day('2026-09-01', 1, 1, 10)],
    ]);
    expect(staleDays(table, truth)).toEqual(['2026-09-02', '2026-09-03', '2026-09-04']);
    expect(staleDays(truth, truth)).toEqual([]);
  });
});

describe('replayNightly on tiny feeds', () => {
  // A delivered order on 5 Sep, refunded `late` days later.
  const refundedLate = (late: number): FeedRow[] => [
    row('2026-09-05', 1, '2026-09-05', 'delivered', '40.00'),
    row('2026-09-05', 2, '2026-09-05', 'delivered', '15.25'),
    row(dateRange('2026-09-05', '2026-09-30')[late]!, 1, '2026-09-05', 'refunded', '40.00'),
  ];

  it('catches a refund exactly lookback days late', () => {
    const rows = refundedLate(3);
    expect(maxLateness(rows)).toBe(3);
    const result = replayNightly(rows, { from: '2026-09-02', to: '2026-09-20', lookback: 3 });
    expect(result.finalStale).toEqual([]);
    expect(result.nights.every((n) => n.stale.length === 0)).toBe(true);
    expect(result.table.get('2026-09-05')).toEqual(day('2026-09-05', 2, 1, 15.25));
  });

  it('misses a refund one day later than the lookback, silently, for good', () => {
    const rows = refundedLate(4);
    const result = replayNightly(rows, { from: '2026-09-02', to: '2026-09-20', lookback: 3 });
    expect(result.finalStale).toEqual(['2026-09-05']);
    expect(result.table.get('2026-09-05')).toEqual(day('2026-09-05', 2, 2, 55.25));
    const staleFrom = result.nights.find((n) => n.stale.length > 0)!;
    expect(staleFrom.run_date).toBe('2026-09-09');
    expect(result.nights.at(-1)!.stale).toEqual(['2026-09-05']);
  });

  it('a weekly backfill on Sunday repairs what the lookback missed', () => {
    const rows = refundedLate(4); // refund lands Wed 9 Sep
    const result = replayNightly(rows, { from: '2026-09-02', to: '2026-09-20', lookback: 3, weeklyBackfill: 30 });
    const counts = Object.fromEntries(result.nights.map((n) => [n.run_date, n.stale.length]));
    expect(counts['2026-09-09']).toBe(1);
    expect(counts['2026-09-12']).toBe(1);
    expect(dayOfWeek('2026-09-13')).toBe(0);
    expect(counts['2026-09-13']).toBe(0);
    expect(result.finalStale).toEqual([]);
  });

  it('a day whose only order is cancelled stays at revenue 0', () => {
    const rows = [
      row('2026-09-02', 1, '2026-09-02', 'delivered', '10.00'),
      row('2026-09-04', 2, '2026-09-03', 'cancelled', '33.00'),
    ];
    const result = replayNightly(rows, { from: '2026-09-02', to: '2026-09-06', lookback: 1 });
    expect(result.table.get('2026-09-03')).toEqual(day('2026-09-03', 1, 0, 0));
    expect(result.finalStale).toEqual([]);
  });

  it('handles an empty feed', () => {
    const result = replayNightly([], { from: '2026-09-02', to: '2026-09-10', lookback: 3 });
    expect(result.table.size).toBe(0);
    expect(result.nights).toHaveLength(9);
    expect(result.nights.every((n) => n.stale.length === 0)).toBe(true);
    expect(result.finalStale).toEqual([]);
  });

  it('rejects a negative lookback', () => {
    expect(() => replayNightly([], { from: '2026-09-02', to: '2026-09-03', lookback: -1 })).toThrow(RangeError);
  });
});

describe('the Brightcart story on the reference feed', () => {
  const rows = generateFeed();
  const replay3 = replayNightly(rows, { from: '2026-09-02', to: '2026-10-31', lookback: 3 });
  const truth = fullRebuild(rows);

  it('a lookback of 3 leaves 41 of 61 days stale, first 3 Sep, last 26 Oct', () => {
    expect(truth.size).toBe(61);
    expect(replay3.nights).toHaveLength(60);
    expect(replay3.finalStale).toHaveLength(41);
    expect(replay3.finalStale[0]).toBe('2026-09-03');
    expect(replay3.finalStale.at(-1)).toBe('2026-10-26');
    expect(replay3.nights.at(-1)!.stale).toEqual(replay3.finalStale);
    // Exactly the days that received a refund more than 3 days late.
    const lateDates = [...new Set(rows.filter((r) => daysBetween(r.order_date, r.load_date) > 3).map((r) => r.order_date))].sort();
    expect(replay3.finalStale).toEqual(lateDates);
  });

  it('the stale table overstates September revenue (refunds never taken off)', () => {
    const september = (t: Map<string, DayRevenue>) =>
      [...t.values()].filter((d) => d.order_date.startsWith('2026-09')).reduce((cents, d) => cents + Math.round(d.revenue * 100), 0);
    expect(september(replay3.table)).toBeGreaterThan(september(truth));
  });

  it('one backfill of 3 Sep..26 Oct (54 days) as of 31 Oct repairs it', () => {
    expect(dateRange('2026-09-03', '2026-10-26')).toHaveLength(54);
    const repaired = rewriteDays(replay3.table, rows, '2026-10-31', '2026-09-03', '2026-10-26');
    expect(staleDays(repaired, truth)).toEqual([]);
    expect(repaired).toEqual(truth);
  });

  it('backfilling with the old as-of date reproduces the error', () => {
    let table = replay3.table;
    for (const d of dateRange('2026-09-03', '2026-10-26')) table = rewriteDays(table, rows, d, d, d);
    expect(staleDays(table, truth).length).toBeGreaterThanOrEqual(41);
  });

  it('a lookback of maxLateness (11) never leaves a day stale; 10 does', () => {
    const longest = maxLateness(rows);
    expect(longest).toBe(11);
    const replay11 = replayNightly(rows, { from: '2026-09-02', to: '2026-10-31', lookback: longest });
    expect(replay11.finalStale).toEqual([]);
    expect(replay11.nights.every((n) => n.stale.length === 0)).toBe(true);
    expect(replay11.table).toEqual(truth);
    const replay10 = replayNightly(rows, { from: '2026-09-02', to: '2026-10-31', lookback: longest - 1 });
    expect(replay10.finalStale).toHaveLength(1);
  });

  it('stretch: lookback 3 plus a 30-day backfill every Sunday leaves at most 9 days stale', () => {
    const replay = replayNightly(rows, { from: '2026-09-02', to: '2026-10-31', lookback: 3, weeklyBackfill: 30 });
    const counts = replay.nights.map((n) => n.stale.length);
    const worst = Math.max(...counts);
    expect(worst).toBe(9);
    expect(replay.nights.filter((n) => n.stale.length === worst).map((n) => n.run_date)).toEqual(['2026-10-30', '2026-10-31']);
    // Sunday nights end clean; the count climbs through the week.
    for (const n of replay.nights) if (dayOfWeek(n.run_date) === 0) expect(n.stale).toEqual([]);
    expect(replay.finalStale).toHaveLength(9);
  });
});

describe('seed 2027', () => {
  it('needs a lookback of its own longest lateness', () => {
    const rows = generateFeed({ seed: 2027 });
    const longest = maxLateness(rows);
    expect(longest).not.toBe(11);
    const exact = replayNightly(rows, { from: '2026-09-02', to: '2026-10-31', lookback: longest });
    expect(exact.finalStale).toEqual([]);
    const short = replayNightly(rows, { from: '2026-09-02', to: '2026-10-31', lookback: 11 });
    expect(short.finalStale.length).toBeGreaterThan(0);
  });
});
