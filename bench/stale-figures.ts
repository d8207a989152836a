/**
 * `stale` in fast and exact mode against a full rebuild of daily_revenue, on
 * the history after the nightly and backfill figures have run. Written
 * against whatever the library exports: when there is no `stale`, the figures
 * say so instead of measuring something else.
 */
import * as api from '../src/index.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, notMeasured, type Figure } from './figure.js';
import { mustSucceed } from './history-workspace.js';
import { sideBySide, timed } from './side-by-side.js';

type StaleFn = (options: { session: api.Session; model: string; mode: 'fast' | 'exact'; detailPartitions?: number; vars?: Record<string, unknown>; candidates?: boolean; notFinal?: boolean }) => { stale: readonly string[]; rebuilt_partitions?: number | null; partitions_checked: number };

export async function staleFigures(ctx: BenchContext): Promise<Figure[]> {
  const stale = (api as Record<string, unknown>).stale as StaleFn | undefined;
  if (typeof stale !== 'function') {
    return [
      notMeasured('stale-fast', '`stale` fast mode / full rebuild', '<= 5%', 'stale not available'),
      notMeasured('stale-exact', '`stale` exact mode / full rebuild', '<= 1.5x', 'stale not available'),
    ];
  }
  const { session } = await ctx.history();
  const model = 'daily_revenue';
  const { medians } = await sideBySide(
    {
      fast: () => timed(() => stale({ session, model, mode: 'fast', detailPartitions: 0 })),
      exact: () => timed(() => stale({ session, model, mode: 'exact', detailPartitions: 0 })),
      full: () => timed(async () => mustSucceed(await api.run({ session, select: [model], fullRefresh: true }), 'full rebuild')),
    },
    ctx.repeats,
  );
  const fast = medians.fast / medians.full;
  const exact = medians.exact / medians.full;
  const candidates = await candidatesFigure(ctx, session, stale, medians.full);
  return [
    candidates,
    {
      id: 'stale-fast',
      title: '`stale` fast mode / full rebuild of daily_revenue',
      ratioOf: 'stale --fast / full rebuild',
      ratio: fast,
      measured: `stale fast ${formatMs(medians.fast)}, full rebuild ${formatMs(medians.full)}`,
      target: '<= 5%',
      meets: fast <= 0.05,
    },
    {
      id: 'stale-exact',
      title: '`stale` exact mode / full rebuild of daily_revenue',
      ratioOf: 'stale (exact) / full rebuild',
      ratio: exact,
      measured: `stale exact ${formatMs(medians.exact)}, full rebuild ${formatMs(medians.full)}`,
      target: '<= 1.5x',
      meets: exact <= 1.5,
      note: `ratio ${formatRatio(exact)}`,
    },
  ];
}

/** The night `stale --candidates` is asked about, after a month of nightly runs with a lookback too short for the late rows. */
const FIRST_NIGHT = '2026-12-01';
const LAST_NIGHT = '2026-12-31';

/**
 * `stale --candidates` (issue 18: the exact answer at candidate cost): a full
 * build as of the night before the first, one nightly run a night with
 * lookback 3 (the late refunds of 4 to 11 days are missed), then, as of the
 * last night, the candidates' comparison side by side with the full one
 * (both read-only). Its ratio to the full rebuild is that comparison's time
 * over the full rebuild measured by the figure above.
 */
async function candidatesFigure(ctx: BenchContext, session: api.Session, stale: StaleFn, fullRebuildMs: number): Promise<Figure> {
  const model = 'daily_revenue';
  mustSucceed(await api.run({ session, select: [model], fullRefresh: true, vars: { as_of: '2026-11-30' }, writeArtifacts: false }), 'the first build');
  for (let day = 1; day <= 31; day++) {
    const night = `2026-12-${String(day).padStart(2, '0')}`;
    mustSucceed(await api.run({ session, select: [model], vars: { as_of: night, lookback_days: 3 }, writeArtifacts: false }), `the night of ${night}`);
  }
  const vars = { as_of: LAST_NIGHT };
  const ask = (candidates: boolean) => stale({ session, model, mode: 'exact', vars, candidates, notFinal: false, detailPartitions: 0 });
  const answer = ask(true);
  const same = JSON.stringify(answer.stale) === JSON.stringify(ask(false).stale);
  const { medians } = await sideBySide({ candidates: () => timed(() => ask(true)), all: () => timed(() => ask(false)) }, ctx.repeats);
  const ratio = medians.candidates / fullRebuildMs;
  return {
    id: 'stale-candidates',
    title: '`stale --candidates` (exact on what the ledger cannot vouch for) / full rebuild of daily_revenue',
    ratioOf: 'stale --candidates / full rebuild',
    ratio,
    measured: `as of ${LAST_NIGHT} after nightly runs ${FIRST_NIGHT}..${LAST_NIGHT} with lookback 3: ${answer.rebuilt_partitions ?? 'all'} of ${answer.partitions_checked} partitions rebuilt, ${answer.stale.length} stale (${same ? 'the same' : 'NOT the same'} as the full comparison); ${formatMs(medians.candidates)} against ${formatMs(medians.all)} for the full comparison (${formatRatio(medians.candidates / medians.all)}), full rebuild ${formatMs(fullRebuildMs)}`,
    target: '<= 5% of a full rebuild, the same answer as the full comparison',
    meets: ratio <= 0.05 && same && typeof answer.rebuilt_partitions === 'number',
  };
}
