/**
 * A fast, deterministic generator of a long Brightcart history for the
 * benchmarks: `days` order days of about `ordersPerDay` orders each, with the
 * lateness profile of the reference feed (src/feed/generate-feed.ts) applied
 * as shares:
 *
 *   first versions land 0/1/2/3 days late in the proportions 840:150:36:6;
 *   26 in 1,032 orders get a refund or cancellation 1..3 days late (14:9:3);
 *   66 in 1,032 orders get a late refund 4..11 days late (7:10:10:11:11:13:3:1);
 *   4% of the other orders are cancelled outright.
 *
 * That is about 1.089 rows an order, so three years at 1,000 orders a day is
 * about 1.2 million rows. Rows are written sorted by load_date, then order_id
 * (like the real feed), streamed through a 12-day ring of buckets so memory
 * stays flat at any scale. generateFeed itself draws a whole range in memory
 * and is quadratic in places; this one is linear.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { FEED_CSV_HEADER } from '../src/feed/generate-feed.js';
import { addDays, dayOfWeek } from '../src/feed/iso-date.js';
import { mulberry32 } from '../src/feed/seeded-random.js';

export interface HistoryOptions {
  readonly path: string;
  readonly start: string;
  readonly days: number;
  readonly ordersPerDay: number;
  readonly seed?: number;
}

export interface HistoryFile {
  readonly path: string;
  readonly rows: number;
  readonly orders: number;
  readonly bytes: number;
  readonly start: string;
  readonly end: string;
  /** The longest lateness in the file, in days. */
  readonly maxLateness: number;
}

const FIRST_LATENESS = [840, 150, 36, 6];
const FOLLOW_UPS = [0, 14, 9, 3]; // per 1,032 orders
const LATE_REFUNDS = [0, 0, 0, 0, 7, 10, 10, 11, 11, 13, 3, 1]; // per 1,032 orders
const REFERENCE_ORDERS = 1032;
const RING = LATE_REFUNDS.length; // 12 days: lateness 0..11

/** Cumulative thresholds over [0, 1) for drawing an index with these weights. */
function cumulative(weights: readonly number[], total: number): number[] {
  let acc = 0;
  return weights.map((w) => (acc += w / total));
}

function draw(thresholds: readonly number[], x: number): number {
  let i = 0;
  while (i < thresholds.length - 1 && x >= thresholds[i]!) i++;
  return i;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Write the history CSV to `options.path` and describe it. */
export function writeHistory(options: HistoryOptions): HistoryFile {
  const rng = mulberry32(options.seed ?? 2026);
  const firstLateness = cumulative(FIRST_LATENESS, sum(FIRST_LATENESS));
  const followShare = sum(FOLLOW_UPS) / REFERENCE_ORDERS;
  const lateShare = sum(LATE_REFUNDS) / REFERENCE_ORDERS;
  const followLateness = cumulative(FOLLOW_UPS, sum(FOLLOW_UPS));
  const lateLateness = cumulative(LATE_REFUNDS, sum(LATE_REFUNDS));
  // Weekends 1.25, Mondays 1.1, other days 1: scale so the mean is ordersPerDay.
  const base = options.ordersPerDay / ((2 * 1.25 + 1.1 + 4) / 7);

  const buckets: string[][] = Array.from({ length: RING }, () => []);
  const fd = openSync(options.path, 'w');
  let rows = 0;
  let bytes = 0;
  let maxLateness = 0;
  let nextId = 100_001;
  const write = (text: string) => {
    bytes += writeSync(fd, text);
  };
  const flush = (bucket: string[]) => {
    if (bucket.length === 0) return;
    write(`${bucket.join('\n')}\n`);
    rows += bucket.length;
    bucket.length = 0;
  };
  try {
    write(`${FEED_CSV_HEADER}\n`);
    let day = options.start;
    const loadDates = Array.from({ length: RING }, (_, k) => addDays(day, k));
    for (let d = 0; d < options.days; d++) {
      const dow = dayOfWeek(day);
      const weight = dow === 0 || dow === 6 ? 1.25 : dow === 1 ? 1.1 : 1;
      const orders = Math.max(1, Math.round(base * weight * (0.9 + 0.2 * rng())));
      const room = options.days - 1 - d; // the last order day is the last load day
      for (let k = 0; k < orders; k++) {
        const id = nextId++;
        const cents = Math.min(25_000, Math.max(500, Math.round(4200 * Math.exp(0.55 * normal(rng)))));
        const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        const first = Math.min(room, draw(firstLateness, rng()));
        const x = rng();
        let later = -1;
        let laterStatus = 'refunded';
        if (x < lateShare) later = draw(lateLateness, rng());
        else if (x < lateShare + followShare) {
          later = draw(followLateness, rng());
          if (rng() >= 0.6) laterStatus = 'cancelled';
        }
        if (later !== -1 && (later > room || later <= first)) later = -1;
        const status = later === -1 && rng() < 0.04 ? 'cancelled' : 'delivered';
        buckets[(d + first) % RING]!.push(`${loadDates[first]},${id},${day},${status},${amount}`);
        if (later !== -1) {
          buckets[(d + later) % RING]!.push(`${loadDates[later]},${id},${day},${laterStatus},${amount}`);
          if (later > maxLateness) maxLateness = later;
        }
        if (first > maxLateness) maxLateness = first;
      }
      // Load day `day` is complete: every row landing on it belongs to an order day <= day.
      flush(buckets[d % RING]!);
      day = addDays(day, 1);
      loadDates.shift();
      loadDates.push(addDays(day, RING - 1));
    }
  } finally {
    closeSync(fd);
  }
  return { path: options.path, rows, orders: nextId - 100_001, bytes, start: options.start, end: addDays(options.start, options.days - 1), maxLateness };
}

/** Standard normal (Box-Muller). */
function normal(rng: () => number): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}
