/**
 * Plain-TypeScript oracle for the Brightcart `daily_revenue` model (no SQL).
 *
 * It states what the incremental model must produce, so SQL-backed runs can
 * be compared against it:
 * - the latest version of an order (highest load_date) wins;
 * - a day's revenue is the sum of amount over its orders whose latest status
 *   is delivered, computed in integer cents, 0 (not null) when none is;
 * - a run "as of" night R sees only rows with load_date <= R;
 * - rewriting a range of days is delete+insert: every day that has rows in
 *   the range is replaced; a day with no rows is left as it was.
 */
import type { FeedRow } from '../../src/feed/generate-feed.js';
import { addDays, dateRange, dayOfWeek, daysBetween } from '../../src/feed/iso-date.js';

export interface DayRevenue {
  order_date: string;
  orders: number;
  delivered_orders: number;
  /** Rounded to 2 places, computed in integer cents. */
  revenue: number;
}

export type RevenueTable = Map<string, DayRevenue>;

function toCents(amount: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`amount is not a decimal with at most two places: ${JSON.stringify(amount)}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -cents : cents;
}

function sortedTable(entries: Iterable<DayRevenue>): RevenueTable {
  const list = [...entries].sort((a, b) => (a.order_date < b.order_date ? -1 : a.order_date > b.order_date ? 1 : 0));
  return new Map(list.map((d) => [d.order_date, d]));
}

/** Days computed from the latest version (as of `asOf`) of every order whose order_date passes `keep`. */
function computeDays(rows: readonly FeedRow[], asOf: string | undefined, keep: (orderDate: string) => boolean): RevenueTable {
  const latest = new Map<number, FeedRow>();
  for (const row of rows) {
    if (asOf !== undefined && row.load_date > asOf) continue;
    if (!keep(row.order_date)) continue;
    const seen = latest.get(row.order_id);
    if (!seen || row.load_date > seen.load_date) latest.set(row.order_id, row);
  }
  const days = new Map<string, { orders: number; delivered: number; cents: number }>();
  for (const row of latest.values()) {
    let day = days.get(row.order_date);
    if (!day) days.set(row.order_date, (day = { orders: 0, delivered: 0, cents: 0 }));
    day.orders += 1;
    if (row.status === 'delivered') {
      day.delivered += 1;
      day.cents += toCents(row.amount);
    }
  }
  return sortedTable(
    [...days].map(([order_date, d]) => ({
      order_date,
      orders: d.orders,
      delivered_orders: d.delivered,
      revenue: d.cents / 100,
    })),
  );
}

/**
 * The table a full rebuild gives, from the rows with load_date <= asOf
 * (default: all rows). Sorted by order_date.
 */
export function fullRebuild(rows: readonly FeedRow[], asOf?: string): RevenueTable {
  return computeDays(rows, asOf, () => true);
}

/**
 * A new table where the days from..to (both included) are recomputed as of
 * `asOf`, with delete+insert semantics: each day that has rows in the window
 * replaces its old row; a day with no rows keeps its old row (if any). The
 * input table is not modified.
 */
export function rewriteDays(
  table: ReadonlyMap<string, DayRevenue>,
  rows: readonly FeedRow[],
  asOf: string,
  from: string,
  to: string,
): RevenueTable {
  const fresh = computeDays(rows, asOf, (d) => d >= from && d <= to);
  const out = new Map(table);
  for (const [day, value] of fresh) out.set(day, value);
  return sortedTable(out.values());
}

export interface ReplayOptions {
  /** First night replayed; the table starts as a full build as of the night before. */
  from: string;
  /** Last night replayed, included. */
  to: string;
  /** Night R rewrites R-lookback..R as of R. */
  lookback: number;
  /** Every Sunday night R also rewrites R-N..R as of R. */
  weeklyBackfill?: number;
}

export interface ReplayNight {
  run_date: string;
  /** Days that differ from a full rebuild as of run_date, after that night's runs. */
  stale: string[];
}

export interface ReplayResult {
  table: RevenueTable;
  nights: ReplayNight[];
  /** Days that differ from a full rebuild of every row in the feed. */
  finalStale: string[];
}

/** Replay the nightly incremental job over from..to and report the stale days after each night. */
export function replayNightly(rows: readonly FeedRow[], options: ReplayOptions): ReplayResult {
  const { from, to, lookback, weeklyBackfill } = options;
  if (!Number.isInteger(lookback) || lookback < 0) throw new RangeError(`lookback must be a non-negative integer, got ${lookback}`);
  if (weeklyBackfill !== undefined && (!Number.isInteger(weeklyBackfill) || weeklyBackfill < 0)) {
    throw new RangeError(`weeklyBackfill must be a non-negative integer, got ${weeklyBackfill}`);
  }
  let table = fullRebuild(rows, addDays(from, -1));
  const nights: ReplayNight[] = [];
  for (const night of dateRange(from, to)) {
    table = rewriteDays(table, rows, night, addDays(night, -lookback), night);
    if (weeklyBackfill !== undefined && dayOfWeek(night) === 0) {
      table = rewriteDays(table, rows, night, addDays(night, -weeklyBackfill), night);
    }
    nights.push({ run_date: night, stale: staleDays(table, fullRebuild(rows, night)) });
  }
  return { table, nights, finalStale: staleDays(table, fullRebuild(rows)) };
}

function sameDay(a: DayRevenue, b: DayRevenue): boolean {
  return a.orders === b.orders && a.delivered_orders === b.delivered_orders && a.revenue === b.revenue;
}

/** Days whose row differs between `table` and `truth`, or is in only one of them; sorted. */
export function staleDays(table: ReadonlyMap<string, DayRevenue>, truth: ReadonlyMap<string, DayRevenue>): string[] {
  const days = new Set([...table.keys(), ...truth.keys()]);
  return [...days]
    .filter((day) => {
      const a = table.get(day);
      const b = truth.get(day);
      return !a || !b || !sameDay(a, b);
    })
    .sort();
}

/** Longest lateness (load_date - order_date, in days) in the feed; 0 for an empty feed. */
export function maxLateness(rows: readonly FeedRow[]): number {
  let max = 0;
  for (const row of rows) max = Math.max(max, daysBetween(row.order_date, row.load_date));
  return max;
}
