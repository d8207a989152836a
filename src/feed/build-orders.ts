/**
 * From a feed profile to orders: which order gets a late refund, a follow-up
 * inside the lookback, a late first version or a cancellation. Amounts are
 * drawn here too; the reference feed fits them to the lesson's money later.
 */
import { daysBetween } from './iso-date.js';
import type { Rng } from './seeded-random.js';
import { RankedPositions } from './ranked-positions.js';
import type { FeedProfile, LatenessCounts } from './feed-profile.js';

export type FeedStatus = 'delivered' | 'refunded' | 'cancelled';

/** Order ids are consecutive from this one, in order_date order. */
export const FIRST_ORDER_ID = 50_001;

export interface Version {
  lateness: number;
  status: FeedStatus;
}

export interface Order {
  id: number;
  date: string;
  /** Days from order_date to the end of the range: the most a version of it can be late. */
  room: number;
  cents: number;
  first: Version;
  later?: Version;
}

const MIN_AMOUNT_CENTS = 2_000;
const MAX_AMOUNT_CENTS = 200_000;

function expand(counts: LatenessCounts): number[] {
  return counts.flatMap((c, lateness) => Array.from({ length: c }, () => lateness));
}

/** A grocery basket total: log-normal around 380.00, clamped to 20.00..2,000.00. */
function drawAmountCents(rng: Rng): number {
  const cents = Math.round(Math.exp(Math.log(38_000) + 0.55 * rng.normal()));
  return Math.min(MAX_AMOUNT_CENTS, Math.max(MIN_AMOUNT_CENTS, cents));
}

/**
 * Give every late-refund date at least one late lateness that still lands by
 * `end`, then spread the remaining ones. Dates are served latest first: the
 * values allowed on a date are a prefix of the sorted values and the prefixes
 * grow with earlier dates, so any choice keeps the rest assignable. Each draw
 * picks the k-th eligible value (or date) through RankedPositions, so the
 * work grows as n log n with the range, not n squared.
 */
function assignLateRefunds(
  rng: Rng,
  latenesses: readonly number[],
  lateDates: readonly string[],
  end: string,
  capacity: Map<string, number>,
): Array<[string, number]> {
  const values = rng.shuffle(latenesses);
  // Latest first: the room each date leaves (days to the end) grows along the list.
  const dates = [...lateDates].sort().reverse();
  const room = dates.map((d) => daysBetween(d, end));
  const cap = dates.map((d) => capacity.get(d) ?? 0);
  const used = dates.map(() => 0);
  const placed: Array<[string, number]> = [];

  // One value for each date, drawn among the values that fit it, in the values' order.
  const byValue = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]! || a - b);
  const eligible = new RankedPositions(values.length);
  const taken = new Uint8Array(values.length);
  let next = 0;
  dates.forEach((date, d) => {
    for (; next < byValue.length && values[byValue[next]!]! <= room[d]!; next++) eligible.add(byValue[next]!);
    if (eligible.count === 0 || cap[d]! < 1) return;
    const position = eligible.nth(Math.floor(rng.float() * eligible.count));
    eligible.delete(position);
    taken[position] = 1;
    placed.push([date, values[position]!]);
    used[d]! += 1;
  });

  // Longest first: they fit on the fewest dates. Keep at most 4 per date when possible.
  const rest = values.filter((_, i) => taken[i] === 0).sort((a, b) => b - a);
  const open = new RankedPositions(dates.length);
  const roomy = new RankedPositions(dates.length);
  dates.forEach((_, d) => {
    if (used[d]! < cap[d]!) open.add(d);
    if (used[d]! < cap[d]! && used[d]! < 4) roomy.add(d);
  });
  // The dates a lateness fits are those from `from` on (room grows along the list; latenesses shrink).
  let from = dates.length;
  for (const lateness of rest) {
    while (from > 0 && room[from - 1]! >= lateness) from -= 1;
    const choices = roomy.count - roomy.before(from) > 0 ? roomy : open;
    const skipped = choices.before(from);
    const count = choices.count - skipped;
    if (count === 0) continue; // no room anywhere (only possible on tiny custom ranges)
    const d = choices.nth(skipped + Math.floor(rng.float() * count));
    placed.push([dates[d]!, lateness]);
    used[d]! += 1;
    if (used[d]! >= cap[d]!) open.delete(d);
    if (used[d]! >= cap[d]! || used[d]! >= 4) roomy.delete(d);
  }
  return placed;
}

/** Remove one occurrence of `value` from `values` (in place). */
function removeOne(values: number[], value: number): void {
  const i = values.indexOf(value);
  if (i < 0) throw new Error(`no lateness ${value} left for the pinned refund`);
  values.splice(i, 1);
}

export function buildOrders(rng: Rng, days: readonly string[], profile: FeedProfile): Order[] {
  const end = days[days.length - 1]!;
  const orders: Order[] = [];
  const byDate = new Map<string, Order[]>();
  days.forEach((date, dayIndex) => {
    const list: Order[] = [];
    for (let k = 0; k < (profile.dailyOrders[dayIndex] ?? 0); k++) {
      const order: Order = {
        id: FIRST_ORDER_ID + orders.length,
        date,
        room: days.length - 1 - dayIndex,
        cents: drawAmountCents(rng),
        first: { lateness: 0, status: 'delivered' },
      };
      orders.push(order);
      list.push(order);
    }
    byDate.set(date, list);
  });

  const cancelledOnly = byDate.get(profile.cancelledOnlyDay) ?? [];
  for (const order of cancelledOnly) order.first.status = 'cancelled';
  const reserved = new Set(cancelledOnly);
  const lateRefunds = expand(profile.lateRefunds);

  // The pinned refund: its day gets no other late refund, follow-up or cancellation,
  // and no day before it gets a follow-up, so it is the first order ever refunded.
  const pinned = profile.pinnedRefund;
  const noFollowUp = (o: Order) => pinned !== undefined && o.date <= pinned.date;
  if (pinned) {
    const order = byDate.get(pinned.date)?.[pinned.index];
    if (!order) throw new Error(`no order ${pinned.index} on ${pinned.date} for the pinned refund`);
    removeOne(lateRefunds, pinned.lateness);
    order.later = { lateness: pinned.lateness, status: 'refunded' };
    for (const o of byDate.get(pinned.date) ?? []) reserved.add(o);
  }

  // Late refunds: a delivered order, refunded more than 3 days after its order_date.
  const capacity = new Map(profile.lateDates.map((d) => [d, (byDate.get(d) ?? []).filter((o) => !reserved.has(o)).length]));
  for (const [date, lateness] of assignLateRefunds(rng, lateRefunds, profile.lateDates, end, capacity)) {
    const free = (byDate.get(date) ?? []).filter((o) => !o.later && !reserved.has(o));
    const order = rng.pick(free);
    order.later = { lateness, status: 'refunded' };
  }

  // Follow-ups inside the lookback: a delivered order refunded or cancelled 1..3 days late.
  // Orders are in date order, so those with room for a lateness are a prefix, longer as latenesses shrink.
  const followUpFree = new RankedPositions(orders.length);
  let reach = 0;
  for (const lateness of expand(profile.followUps).sort((a, b) => b - a)) {
    for (; reach < orders.length && orders[reach]!.room >= lateness; reach++) {
      const o = orders[reach]!;
      if (!o.later && !reserved.has(o) && !noFollowUp(o)) followUpFree.add(reach);
    }
    if (followUpFree.count === 0) continue;
    const position = followUpFree.nth(Math.floor(rng.float() * followUpFree.count));
    followUpFree.delete(position);
    orders[position]!.later = { lateness, status: rng.float() < 0.6 ? 'refunded' : 'cancelled' };
  }

  // First versions landing 1..3 days late, most constrained first; always before any later version.
  const pending = new Set(orders);
  if (pinned) for (const o of byDate.get(pinned.date) ?? []) if (o.later) pending.delete(o);
  let free: Order[] = [];
  let freeLeft = RankedPositions.full(0);
  let freeFor = -1;
  for (const lateness of expand(profile.firstLateness).filter((l) => l > 0).sort((a, b) => b - a)) {
    if (lateness !== freeFor) {
      free = [...pending].filter((o) => o.room >= lateness && (!o.later || o.later.lateness > lateness));
      freeLeft = RankedPositions.full(free.length);
      freeFor = lateness;
    }
    if (freeLeft.count === 0) continue;
    const position = freeLeft.nth(Math.floor(rng.float() * freeLeft.count));
    freeLeft.delete(position);
    const order = free[position]!;
    order.first.lateness = lateness;
    pending.delete(order);
  }

  // Some orders are cancelled outright; never one that has a later version.
  for (const order of orders) {
    if (!order.later && !reserved.has(order) && rng.float() < profile.cancelShare) order.first.status = 'cancelled';
  }
  return orders;
}
