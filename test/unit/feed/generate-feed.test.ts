import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FEED_SEED,
  feedToCsv,
  generateFeed,
  type FeedRow,
} from '../../../src/feed/generate-feed.js';
import { addDays, dateRange, dayOfWeek, daysBetween, isIsoDate } from '../../../src/feed/iso-date.js';
import { fullRebuild, maxLateness } from '../../support/revenue-oracle.js';

const START = '2026-09-01';
const END = '2026-10-31';

/** Raise with FEED_FUZZ_RUNS=500 for a deeper search; kept small so the suite stays fast. */
const FUZZ_RUNS = Number(process.env['FEED_FUZZ_RUNS'] ?? 12);

const lateness = (r: FeedRow) => daysBetween(r.order_date, r.load_date);

function versionsByOrder(rows: readonly FeedRow[]): Map<number, FeedRow[]> {
  const byOrder = new Map<number, FeedRow[]>();
  for (const r of rows) {
    const list = byOrder.get(r.order_id) ?? [];
    list.push(r);
    byOrder.set(r.order_id, list);
  }
  for (const list of byOrder.values()) list.sort((a, b) => (a.load_date < b.load_date ? -1 : 1));
  return byOrder;
}

function histogram(rows: readonly FeedRow[]): Record<number, number> {
  const h: Record<number, number> = {};
  for (const r of rows) h[lateness(r)] = (h[lateness(r)] ?? 0) + 1;
  return h;
}

/** Every broken feed invariant, as readable messages; empty when the feed is valid (whatever the seed). */
function feedViolations(rows: readonly FeedRow[], start: string, end: string): string[] {
  const problems: string[] = [];
  const fail = (message: string, r?: FeedRow) => problems.push(r ? `${message}: ${JSON.stringify(r)}` : message);
  if (rows.length === 0) fail('empty feed');
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    if (!(a.load_date < b.load_date || (a.load_date === b.load_date && a.order_id < b.order_id))) fail('not sorted', b);
  }
  for (const r of rows) {
    if (!isIsoDate(r.order_date) || !isIsoDate(r.load_date)) fail('bad date', r);
    else if (r.order_date < start || r.load_date > end) fail('outside the range', r);
    else if (r.load_date < r.order_date) fail('lands before its order_date', r);
    if (!Number.isSafeInteger(r.order_id)) fail('bad order_id', r);
    if (!['delivered', 'refunded', 'cancelled'].includes(r.status)) fail('bad status', r);
    if (!/^\d+\.\d{2}$/.test(r.amount) || Number(r.amount) < 5 || Number(r.amount) > 3000) fail('bad amount', r);
  }

  for (const versions of versionsByOrder(rows).values()) {
    const first = versions[0]!;
    if (lateness(first) > 3) fail('first version more than 3 days late', first);
    if (new Set(versions.map((v) => v.load_date)).size !== versions.length) fail('two versions on one load_date', first);
    for (const v of versions) {
      if (v.order_date !== first.order_date) fail('order_date changes between versions', v);
      if (v.amount !== first.amount) fail('amount changes between versions', v);
    }
    versions.forEach((v, i) => {
      // A later version is a refund or cancellation of a delivered order.
      if (i > 0 && (versions[i - 1]!.status !== 'delivered' || v.status === 'delivered')) fail('later version does not undo a delivery', v);
      // A row more than 3 days late is a refund whose previous version was delivered.
      if (lateness(v) > 3 && (v.status !== 'refunded' || i === 0 || versions[i - 1]!.status !== 'delivered')) {
        fail('late row is not a refund of a delivered order', v);
      }
    });
  }

  const firstIds = [...versionsByOrder(rows).values()].map((v) => v[0]!).sort((a, b) => (a.order_date < b.order_date ? -1 : a.order_date > b.order_date ? 1 : a.order_id - b.order_id));
  if (firstIds.some((r, i) => r.order_id !== 50_001 + i)) fail('order ids are not consecutive from 50001 in order_date order');

  const orderDates = new Set(rows.map((r) => r.order_date));
  for (const day of dateRange(start, end)) if (!orderDates.has(day)) fail(`no order on ${day}`);

  const days = [...fullRebuild(rows).values()];
  if (!days.some((d) => d.orders === 1 && d.delivered_orders === 0 && d.revenue === 0)) fail('no day whose only order is cancelled');
  return problems;
}

function expectValidFeed(rows: readonly FeedRow[], start: string, end: string): void {
  expect(feedViolations(rows, start, end)).toEqual([]);
}

describe('iso-date', () => {
  it('adds days across months, years and leap days in UTC', () => {
    expect(addDays('2026-09-30', 1)).toBe('2026-10-01');
    expect(addDays('2026-10-01', -1)).toBe('2026-09-30');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-03-29', 0)).toBe('2026-03-29');
  });

  it('counts days between dates and lists ranges inclusively', () => {
    expect(daysBetween('2026-09-01', '2026-10-31')).toBe(60);
    expect(daysBetween('2026-10-31', '2026-09-01')).toBe(-60);
    expect(dateRange(START, END)).toHaveLength(61);
    expect(dateRange('2026-09-03', '2026-10-26')).toHaveLength(54);
    expect(dateRange('2026-09-02', '2026-09-01')).toEqual([]);
    expect(dayOfWeek('2026-09-06')).toBe(0); // a Sunday
    expect(dayOfWeek('2026-10-31')).toBe(6); // a Saturday
  });

  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    expect(isIsoDate('2026-09-01')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    for (const bad of ['2026-02-29', '2026-13-01', '2026-9-1', '2026-09-01T00:00:00Z', '', 20260901, null]) {
      expect(isIsoDate(bad)).toBe(false);
    }
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
  });

  it('addDays and daysBetween are inverse', () => {
    fc.assert(
      fc.property(fc.integer({ min: -4000, max: 4000 }), fc.integer({ min: -400, max: 400 }), (offset, n) => {
        const a = addDays('2026-09-01', offset);
        expect(daysBetween(a, addDays(a, n))).toBe(n);
      }),
      { numRuns: 200 },
    );
  });
});

describe('generateFeed, default seed (the reference feed)', () => {
  const rows = generateFeed();

  it('the invariant check catches broken feeds', () => {
    const late = rows.findIndex((r) => lateness(r) > 3);
    const tampered = rows.map((r, i) => (i === late ? { ...r, status: 'delivered' as const } : r));
    expect(feedViolations(tampered, START, END)).toHaveLength(2); // not a refund, and a later version that delivers
    const noSept10 = rows.filter((r) => r.order_date !== '2026-09-10');
    expect(feedViolations(noSept10, START, END)).toEqual(['order ids are not consecutive from 50001 in order_date order', 'no order on 2026-09-10']);
  });

  it('uses seed 2026 by default', () => {
    expect(DEFAULT_FEED_SEED).toBe(2026);
    expect(generateFeed({ seed: 2026, start: START, end: END })).toEqual(rows);
  });

  it('satisfies every feed invariant', () => {
    expectValidFeed(rows, START, END);
  });

  it('has 1,124 rows for 1,032 orders, 491 in September and 541 in October', () => {
    expect(rows).toHaveLength(1124);
    const byOrder = versionsByOrder(rows);
    expect(byOrder.size).toBe(1032);
    const firsts = [...byOrder.values()].map((v) => v[0]!);
    expect(firsts.filter((r) => r.order_date.startsWith('2026-09'))).toHaveLength(491);
    expect(firsts.filter((r) => r.order_date.startsWith('2026-10'))).toHaveLength(541);
  });

  it('has the reference lateness histogram, longest 11 days', () => {
    expect(histogram(rows)).toEqual({ 0: 840, 1: 164, 2: 45, 3: 9, 4: 7, 5: 10, 6: 10, 7: 11, 8: 11, 9: 13, 10: 3, 11: 1 });
    expect(maxLateness(rows)).toBe(11);
  });

  it('has 66 late refunds and 26 other later versions', () => {
    const late = rows.filter((r) => lateness(r) > 3);
    expect(late).toHaveLength(66);
    expect(late.every((r) => r.status === 'refunded')).toBe(true);
    const extra = [...versionsByOrder(rows).values()].flatMap((v) => v.slice(1));
    expect(extra).toHaveLength(92);
    const short = extra.filter((r) => lateness(r) <= 3);
    expect(short).toHaveLength(26);
    expect(short.every((r) => lateness(r) >= 1)).toBe(true);
  });

  it('puts the late rows on 41 order dates, from 2026-09-03 to 2026-10-26', () => {
    const lateDates = [...new Set(rows.filter((r) => lateness(r) > 3).map((r) => r.order_date))].sort();
    expect(lateDates).toHaveLength(41);
    expect(lateDates[0]).toBe('2026-09-03');
    expect(lateDates.at(-1)).toBe('2026-10-26');
  });
});

describe('generateFeed, determinism and other seeds', () => {
  it('gives the same CSV for the same seed', () => {
    expect(feedToCsv(generateFeed({ seed: 2027 }))).toBe(feedToCsv(generateFeed({ seed: 2027 })));
    expect(feedToCsv(generateFeed())).toBe(feedToCsv(generateFeed({ seed: DEFAULT_FEED_SEED })));
  });

  it('seed 2027 gives a valid feed with a different longest lateness', () => {
    const rows = generateFeed({ seed: 2027 });
    expectValidFeed(rows, START, END);
    expect(maxLateness(rows)).toBe(14);
    expect(feedToCsv(rows)).not.toBe(feedToCsv(generateFeed()));
    const orders = versionsByOrder(rows).size;
    expect(orders).toBeGreaterThan(800);
    expect(orders).toBeLessThan(1300);
  });

  it('any seed gives a valid feed of the same shape', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        const rows = generateFeed({ seed });
        expectValidFeed(rows, START, END);
        const longest = maxLateness(rows);
        expect(longest).toBeGreaterThanOrEqual(13);
        expect(longest).toBeLessThanOrEqual(14);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('any seed and range gives a valid feed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: -400, max: 400 }), fc.integer({ min: 0, max: 90 }), (seed, offset, span) => {
        const start = addDays(START, offset);
        const end = addDays(start, span);
        expectValidFeed(generateFeed({ seed, start, end }), start, end);
      }),
      { numRuns: FUZZ_RUNS },
    );
  });

  it('handles custom and tiny ranges', () => {
    expectValidFeed(generateFeed({ seed: 7, start: '2027-01-01', end: '2027-01-20' }), '2027-01-01', '2027-01-20');
    expectValidFeed(generateFeed({ seed: 7, start: '2027-01-01', end: '2027-01-03' }), '2027-01-01', '2027-01-03');
    const oneDay = generateFeed({ seed: 7, start: '2027-01-01', end: '2027-01-01' });
    expect(oneDay.every((r) => r.load_date === '2027-01-01')).toBe(true);
  });

  it('rejects bad options', () => {
    expect(() => generateFeed({ start: '2026-10-31', end: '2026-09-01' })).toThrow(RangeError);
    expect(() => generateFeed({ start: '2026-9-1' })).toThrow(RangeError);
    expect(() => generateFeed({ seed: 1.5 })).toThrow(RangeError);
  });
});

describe('feedToCsv', () => {
  it('writes a header, one line per row, \\n endings and a trailing newline', () => {
    const rows = generateFeed();
    const csv = feedToCsv(rows);
    const lines = csv.split('\n');
    expect(lines[0]).toBe('load_date,order_id,order_date,status,amount');
    expect(lines).toHaveLength(rows.length + 2);
    expect(lines.at(-1)).toBe('');
    expect(csv).not.toContain('\r');
    const r = rows[0]!;
    expect(lines[1]).toBe(`${r.load_date},${r.order_id},${r.order_date},${r.status},${r.amount}`);
  });

  it('writes only the header for an empty feed', () => {
    expect(feedToCsv([])).toBe('load_date,order_id,order_date,status,amount\n');
  });
});
