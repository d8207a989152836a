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

type StaleFn = (options: { session: api.Session; model: string; mode: 'fast' | 'exact'; detailPartitions?: number }) => { stale: readonly string[] };

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
  return [
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
