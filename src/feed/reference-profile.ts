/**
 * The shape of the reference feed (default seed and range): the story's
 * counts by construction. Orders per month, the lateness histogram and the
 * 41 late-refund days are fixed; the lesson's order 50044 is pinned on
 * 3 September; every day after trap 2's old as-of up to the last late day
 * gets a late refund, so trap 2 leaves the same days stale whether the
 * backfill deletes the days that had no rows yet or keeps them.
 */
import { FIRST_ORDER_ID } from './build-orders.js';
import { apportion, chooseLateDates, dayWeight, type FeedProfile } from './feed-profile.js';
import { addDays, dateRange } from './iso-date.js';
import { LESSON } from './lesson-figures.js';
import type { Rng } from './seeded-random.js';

const REFERENCE = {
  monthOrders: { '2026-09': 491, '2026-10': 541 } as Record<string, number>,
  // 840 + 150 + 36 + 6 = 1,032 first versions
  firstLateness: [840, 150, 36, 6],
  // 26 later versions landing within the lookback: 164 - 150, 45 - 36, 9 - 6
  followUps: [0, 14, 9, 3],
  // 66 late refunds: 4: 7, 5: 10, 6: 10, 7: 11, 8: 11, 9: 13, 10: 3, 11: 1
  lateRefunds: [0, 0, 0, 0, 7, 10, 10, 11, 11, 13, 3, 1],
  firstLateDate: LESSON.firstRefund.date,
  lastLateDate: '2026-10-26',
  lateDateCount: 41,
  cancelShare: 0.04,
} as const;

export function referenceProfile(rng: Rng, days: readonly string[]): FeedProfile {
  const pinned = LESSON.firstRefund;
  const first = REFERENCE.firstLateDate;
  const last = REFERENCE.lastLateDate;
  const september = days.filter((d) => d.startsWith('2026-09') && d > first);
  const cancelledOnlyDay = rng.pick(september);

  // Late days: 3 September, every day after the old as-of, and a sample of the days in between.
  const afterOldAsOf = dateRange(addDays(LESSON.trap2.oldAsOf, 1), last);
  const count = REFERENCE.lateDateCount - afterOldAsOf.length + 1;
  const lateDates = [...new Set([...chooseLateDates(rng, first, afterOldAsOf[0]!, count, cancelledOnlyDay), ...afterOldAsOf])];
  if (lateDates.length !== REFERENCE.lateDateCount) throw new Error(`reference feed: ${lateDates.length} late days`);

  const fixed = new Map([
    [cancelledOnlyDay, 1],
    [pinned.date, pinned.ordersThatDay],
  ]);
  const dailyOrders = days.map((d) => fixed.get(d) ?? 0);
  for (const [month, total] of Object.entries(REFERENCE.monthOrders)) {
    const idx = days.flatMap((d, i) => (d.startsWith(month) && !fixed.has(d) ? [i] : []));
    const taken = [...fixed].filter(([d]) => d.startsWith(month)).reduce((a, [, n]) => a + n, 0);
    const counts = apportion(total - taken, idx.map((i) => dayWeight(rng, days[i]!)), 8);
    idx.forEach((i, k) => (dailyOrders[i] = counts[k]!));
  }

  const ordersBefore = days.reduce((a, d, i) => a + (d < pinned.date ? dailyOrders[i]! : 0), 0);
  const index = pinned.orderId - FIRST_ORDER_ID - ordersBefore;
  if (index < 0 || index >= pinned.ordersThatDay) throw new Error(`reference feed: order ${pinned.orderId} is not on ${pinned.date}`);

  return {
    dailyOrders,
    firstLateness: REFERENCE.firstLateness,
    followUps: REFERENCE.followUps,
    lateRefunds: REFERENCE.lateRefunds,
    lateDates,
    cancelledOnlyDay,
    cancelShare: REFERENCE.cancelShare,
    pinnedRefund: { date: pinned.date, index, lateness: pinned.lateness },
  };
}
