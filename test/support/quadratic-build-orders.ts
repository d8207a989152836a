/**
 * The feed generator's order builder as it was before it drew through
 * RankedPositions (a filtered copy of the candidates per draw: quadratic in
 * the range's length): kept as the oracle the faster one must match draw for
 * draw (test/property/feed-orders.test.ts).
 *
 * From a feed profile to orders: which order gets a late refund, a follow-up
 * inside the lookback, a late first version or a cancellation. Amounts are
 * drawn here too; the reference feed fits them to the lesson's money later.
 */
import { daysBetween } from '../../src/feed/iso-date.js';
import type { Rng } from '../../src/feed/seeded-random.js';
import type { FeedProfile, LatenessCounts } from '../../src/feed/feed-profile.js';

type FeedStatus = 'delivered' | 'refunded' | 'cancelled';

/** Order ids are consecutive from this one, in order_date order. */
const FIRST_ORDER_ID = 50_001;

interface Version {
  lateness: number;
  status: FeedStatus;
}

interface Order {
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
 * grow with earlier dates, so any choice keeps the rest assignable.
 */
function assignLateRefunds(
  rng: Rng,
  latenesses: readonly number[],
  lateDates: readonly string[],
  end: string,
  capacity: Map<string, number>,
): Array<[string, number]> {
  const values = rng.shuffle(latenesses);
  const dates = [...lateDates].sort().reverse();
  const room = new Map(lateDates.map((d) => [d, daysBetween(d, end)]));
  const fits = (date: string, lateness: number) => (room.get(date) ?? 0) >= lateness;
  const placed: Array<[string, number]> = [];
  const used = new Map<string, number>();
  const place = (date: string, index: number) => {
    placed.push([date, values[index]!]);
    values.splice(index, 1);
    used.set(date, (used.get(date) ?? 0) + 1);
  };

  for (const date of dates) {
    const candidates = values.flatMap((v, i) => (fits(date, v) ? [i] : []));
    if (candidates.length === 0 || (capacity.get(date) ?? 0) < 1) continue;
    place(date, rng.pick(candidates));
  }
  // Longest first: they fit on the fewest dates. Keep at most 4 per date when possible.
  values.sort((a, b) => b - a);
  while (values.length > 0) {
    const lateness = values[0]!;
    const open = dates.filter((d) => fits(d, lateness) && (used.get(d) ?? 0) < (capacity.get(d) ?? 0));
    const roomy = open.filter((d) => (used.get(d) ?? 0) < 4);
    const choices = roomy.length > 0 ? roomy : open;
    if (choices.length === 0) {
      values.shift(); // no room anywhere (only possible on tiny custom ranges)
      continue;
    }
    place(rng.pick(choices), 0);
  }
  return placed;
}

/** Remove one occurrence of `value` from `values` (in place). */
function removeOne(values: number[], value: number): void {
  const i = values.indexOf(value);
  if (i < 0) throw new Error(`no lateness ${value} left for the pinned refund`);
  values.splice(i, 1);
}

export function quadraticBuildOrders(rng: Rng, days: readonly string[], profile: FeedProfile): Order[] {
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
  for (const lateness of expand(profile.followUps).sort((a, b) => b - a)) {
    const free = orders.filter((o) => !o.later && !reserved.has(o) && !noFollowUp(o) && o.room >= lateness);
    if (free.length === 0) continue;
    const order = rng.pick(free);
    order.later = { lateness, status: rng.float() < 0.6 ? 'refunded' : 'cancelled' };
  }

  // First versions landing 1..3 days late, most constrained first; always before any later version.
  const pending = new Set(orders);
  if (pinned) for (const o of byDate.get(pinned.date) ?? []) if (o.later) pending.delete(o);
  let free: Order[] = [];
  let freeFor = -1;
  for (const lateness of expand(profile.firstLateness).filter((l) => l > 0).sort((a, b) => b - a)) {
    if (lateness !== freeFor) {
      free = [...pending].filter((o) => o.room >= lateness && (!o.later || o.later.lateness > lateness));
      freeFor = lateness;
    }
    if (free.length === 0) continue;
    const index = Math.floor(rng.float() * free.length);
    const order = free[index]!;
    free.splice(index, 1);
    order.first.lateness = lateness;
    pending.delete(order);
  }

  // Some orders are cancelled outright; never one that has a later version.
  for (const order of orders) {
    if (!order.later && !reserved.has(order) && rng.float() < profile.cancelShare) order.first.status = 'cancelled';
  }
  return orders;
}
