/**
 * The figures of the lesson the story comes from (the spec's table "The
 * lesson's figures") that the reference feed is built to reproduce: the
 * inputs of the reference generator, not results. Money is in cents.
 *
 * "nightly(3)" is a full build as of 2026-09-01, then one run a night, each
 * rewriting the night and the 3 days before it as of that night.
 */
export const LESSON = {
  /** The first order ever refunded: delivered on its day, refunded 6 days later. */
  firstRefund: { orderId: 50_044, date: '2026-09-03', ordersThatDay: 15, lateness: 6, cents: 71_620 },
  /** Revenue of the full rebuild as of 2026-10-31, and of nightly(3), per month. */
  revenue: {
    '2026-09': { fullRebuild: 18_848_388, nightly3: 20_645_960 },
    '2026-10': { fullRebuild: 21_110_910, nightly3: 22_237_229 },
  } as Readonly<Record<string, { readonly fullRebuild: number; readonly nightly3: number }>>,
  /** 3 September in the full rebuild (its nightly(3) revenue adds the first refund's amount). */
  firstRefundDayFullRebuild: 627_522,
  /** Trap 1: adding each night's landed rows to the day totals; revenue = every delivered row. */
  upsertRevenue: 43_900_418,
  /** Step 7: the rows a night with lookback 11 reads on 2026-10-31. */
  step7Window: { from: '2026-10-20', to: '2026-10-31', rows: 210 },
  /**
   * Trap 2: nightly(3), then the range deleted and filled with what had landed
   * by the old as-of. A day stays stale when a row of it landed after the as-of.
   */
  trap2: { from: '2026-09-03', to: '2026-10-26', oldAsOf: '2026-10-01', staleDays: 32 },
} as const;
