/**
 * Nightly incremental run of daily_revenue (lookback 11: 12 days) against a
 * full rebuild of it, same history, same session, interleaved. Both read
 * everything landed so far (no as_of var), like the real nightly job.
 */
import { run } from '../src/index.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { mustSucceed, HISTORY_DAYS } from './history-workspace.js';
import { sideBySide, timed } from './side-by-side.js';

const LOOKBACK = 11;

export async function nightlyFigure(ctx: BenchContext): Promise<Figure> {
  const { session } = await ctx.history();
  const select = ['daily_revenue'];
  const vars = { lookback_days: LOOKBACK };
  const { medians } = await sideBySide(
    {
      nightly: () => timed(async () => mustSucceed(await run({ session, select, vars }), 'nightly run')),
      full: () => timed(async () => mustSucceed(await run({ session, select, vars, fullRefresh: true }), 'full rebuild')),
    },
    ctx.repeats,
  );
  const share = (LOOKBACK + 1) / HISTORY_DAYS;
  const ratio = medians.nightly / medians.full;
  return {
    id: 'nightly',
    title: `nightly incremental run (lookback ${LOOKBACK}) / full rebuild of daily_revenue`,
    ratioOf: 'nightly / full rebuild',
    ratio,
    measured: `nightly ${formatMs(medians.nightly)}, full rebuild ${formatMs(medians.full)}`,
    target: `<= ${formatRatio(2 * share)} (2 x ${LOOKBACK + 1}/${HISTORY_DAYS})`,
    meets: ratio <= 2 * share,
  };
}
