/**
 * Issue 18's replay floor: `replay` of 365 nights on the 3-year history with
 * the exact stale check each night (`--candidates`: only the partitions the
 * ledger cannot vouch for are rebuilt) against the same 365 nightly runs
 * alone, one after the other in this process. Measured once each (a year of
 * nights is long enough to average itself); the replay works on its own
 * scratch copy, the runs alone on the bench's history.
 */
import { replay, run } from '../src/index.js';
import { addDays, dateRange } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { mustSucceed } from './history-workspace.js';
import { timed } from './side-by-side.js';

const FROM = '2026-01-01';
const TO = '2026-12-31';
const LOOKBACK = 3;

export async function replayYearFigure(ctx: BenchContext): Promise<Figure> {
  const { session } = await ctx.history();
  const model = 'daily_revenue';
  const nights = dateRange(FROM, TO);
  let staleAtEnd = 0;
  const replayMs = await timed(async () => {
    const result = await replay({ session, model, from: FROM, to: TO, compareRequired: false, candidates: true, vars: { lookback_days: LOOKBACK } });
    staleAtEnd = result.final_stale.length;
  });
  const aloneMs = await timed(async () => {
    mustSucceed(await run({ session, select: [model], fullRefresh: true, vars: { as_of: addDays(FROM, -1) }, writeArtifacts: false }), 'the first build');
    for (const night of nights) mustSucceed(await run({ session, select: [model], vars: { as_of: night, lookback_days: LOOKBACK }, writeArtifacts: false }), `the night of ${night}`);
  });
  const ratio = replayMs / aloneMs;
  return {
    id: 'replay-year',
    title: `\`replay\` of ${nights.length} nights (lookback ${LOOKBACK}) with the exact stale check each night (--candidates) / the same nightly runs alone`,
    ratioOf: 'replay / nightly runs alone',
    ratio,
    measured: `replay ${formatMs(replayMs)} (${formatMs(replayMs / nights.length)} a night, ${staleAtEnd} stale at the end), runs alone ${formatMs(aloneMs)} (${formatMs(aloneMs / nights.length)} a night); one measurement each`,
    target: '<= 1.5x (issue 18)',
    meets: ratio <= 1.5,
  };
}
