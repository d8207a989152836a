/**
 * Issue 18's replay floor: `replay` of 365 nights on the 3-year history with
 * the exact stale check each night (`--candidates`: only the partitions the
 * ledger cannot vouch for are rebuilt, and of those only the ones a landing
 * or a write put in doubt since the night before) against the same 365
 * nightly runs alone, one after the other in this process. Side by side,
 * the order rotating every round (--repeats rounds, no warm-up: a round is
 * long enough to warm itself), with the process's CPU time of each next to
 * its wall time; the replay works on its own scratch copy, the runs alone
 * on the bench's history.
 */
import { replay, run } from '../src/index.js';
import { addDays, dateRange } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { mustSucceed } from './history-workspace.js';
import { median, sideBySide, timed } from './side-by-side.js';

const FROM = '2026-01-01';
const TO = '2026-12-31';
const LOOKBACK = 3;

export async function replayYearFigure(ctx: BenchContext): Promise<Figure> {
  const { session } = await ctx.history();
  const model = 'daily_revenue';
  const nights = dateRange(FROM, TO);
  let staleAtEnd = 0;
  const cpu = { replay: [] as number[], alone: [] as number[] };
  const withCpu = (key: keyof typeof cpu, work: () => Promise<void>) => async () => {
    const before = process.cpuUsage();
    const ms = await timed(work);
    const used = process.cpuUsage(before);
    cpu[key].push((used.user + used.system) / 1000);
    return ms;
  };
  const { medians } = await sideBySide({
    replay: withCpu('replay', async () => {
      const result = await replay({ session, model, from: FROM, to: TO, compareRequired: false, candidates: true, vars: { lookback_days: LOOKBACK } });
      staleAtEnd = result.final_stale.length;
    }),
    alone: withCpu('alone', async () => {
      mustSucceed(await run({ session, select: [model], fullRefresh: true, vars: { as_of: addDays(FROM, -1) }, writeArtifacts: false }), 'the first build');
      for (const night of nights) mustSucceed(await run({ session, select: [model], vars: { as_of: night, lookback_days: LOOKBACK }, writeArtifacts: false }), `the night of ${night}`);
    }),
  }, ctx.repeats, 0);
  const ratio = medians.replay / medians.alone;
  // The runs alone commit to the bench's warehouse, the replay to its scratch copy: under another process's disk
  // load the runs alone wait longer and the wall ratio flatters the replay, so the CPU ratio must meet the target too.
  const cpuRatio = median(cpu.replay) / median(cpu.alone);
  const rounds = ctx.repeats === 1 ? 'one measurement each' : `medians of ${ctx.repeats} rounds`;
  return {
    id: 'replay-year',
    title: `\`replay\` of ${nights.length} nights (lookback ${LOOKBACK}) with the exact stale check each night (--candidates) / the same nightly runs alone`,
    ratioOf: 'replay / nightly runs alone',
    ratio,
    measured: `replay ${formatMs(medians.replay)} (${formatMs(medians.replay / nights.length)} a night, ${staleAtEnd} stale at the end; CPU ${formatMs(median(cpu.replay))}), `
      + `runs alone ${formatMs(medians.alone)} (${formatMs(medians.alone / nights.length)} a night; CPU ${formatMs(median(cpu.alone))}); CPU ratio ${cpuRatio.toFixed(2)}x; ${rounds}`,
    target: '<= 1.5x (issue 18), in wall and in CPU time',
    meets: ratio <= 1.5 && cpuRatio <= 1.5,
  };
}
