/**
 * Backfill of 54 days against a full rebuild of daily_revenue, through the
 * backfill command's API (preview, before/after totals, downstream check,
 * ledger reason), interleaved with a 1-day backfill to separate the fixed
 * overhead from the per-partition cost.
 */
import { backfill, run } from '../src/index.js';
import { addDays } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { HISTORY_DAYS, mustSucceed } from './history-workspace.js';
import { sideBySide, timed } from './side-by-side.js';

const DAYS = 54;

export async function backfillFigure(ctx: BenchContext): Promise<Figure> {
  const { session, history } = await ctx.history();
  const end = addDays(history.end, -6);
  const range = (days: number) => ({ start: addDays(end, -(days - 1)), end });
  const backfillOf = (days: number) => async () =>
    timed(async () => {
      const result = await backfill({ session, model: 'daily_revenue', ...range(days), reason: 'bench: refunds landed after the lookback' });
      if (result.exitCode !== 0) throw new Error(`backfill of ${days} days failed`);
    });
  const { medians } = await sideBySide(
    {
      range: backfillOf(DAYS),
      day: backfillOf(1),
      full: () => timed(async () => mustSucceed(await run({ session, select: ['daily_revenue'], fullRefresh: true }), 'full rebuild')),
    },
    ctx.repeats,
  );
  const perDay = (medians.range - medians.day) / (DAYS - 1);
  const fixed = Math.max(0, medians.day - perDay);
  const share = DAYS / HISTORY_DAYS;
  const ratio = medians.range / medians.full;
  const variable = (medians.range - fixed) / medians.full;
  return {
    id: 'backfill',
    title: `backfill of ${DAYS} days / full rebuild of daily_revenue`,
    ratioOf: 'backfill / full rebuild',
    ratio,
    measured: `backfill ${formatMs(medians.range)} (1 day: ${formatMs(medians.day)}), full rebuild ${formatMs(medians.full)}; fixed overhead ${formatMs(fixed)}, then ${formatMs(perDay)} a day`,
    target: `<= ${formatRatio(1.5 * share)} (1.5 x ${DAYS}/${HISTORY_DAYS}) + a fixed overhead`,
    meets: variable <= 1.5 * share,
    note: `without the fixed overhead: ${formatRatio(variable)}`,
  };
}
