/**
 * `replay` of the example's two months: one process, one scratch copy of
 * the warehouse, the engine called once a night. Side by side with what a
 * replay that spawned the CLI each night would pay per night: one
 * `mini-dbt run` of daily_revenue in a fresh process.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../src/index.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, notMeasured, type Figure } from './figure.js';
import { REPO_ROOT, copyExample, mustSucceed } from './history-workspace.js';
import { sideBySide, timed } from './side-by-side.js';
import { spawnNode } from './spawn-node.js';

type ReplayFn = (options: { projectDir: string; model: string; from: string; to: string }) => Promise<{ nights: readonly unknown[]; with_required_lookback: { nights: readonly unknown[] } | null }>;

const CLI = join(REPO_ROOT, 'dist', 'bundle', 'main.cjs');
const FROM = '2026-09-01';
const TO = '2026-10-31';

export async function replayFigure(ctx: BenchContext): Promise<Figure> {
  const replay = (api as Record<string, unknown>).replay as ReplayFn | undefined;
  if (typeof replay !== 'function') return notMeasured('replay', '`replay` of two months on the example', 'report', 'replay not available');
  const dir = ctx.path('replay-example');
  copyExample(dir);
  symlinkSync(join(REPO_ROOT, 'seeds', 'raw_orders.csv'), join(dir, 'seeds', 'raw_orders.csv'));
  mustSucceed(await api.run({ projectDir: dir, command: 'build' }), 'building the example');
  let nights = 0;
  const { medians } = await sideBySide(
    {
      replay: () =>
        timed(async () => {
          const result = await replay({ projectDir: dir, model: 'daily_revenue', from: FROM, to: TO });
          nights = result.nights.length + (result.with_required_lookback?.nights.length ?? 0);
        }),
      cliNight: async () => {
        const r = await spawnNode([CLI, 'run', '--select', 'daily_revenue', '--vars', `{as_of: "${TO}", lookback_days: 3}`], { cwd: dir });
        if (r.code !== 0) throw new Error(`mini-dbt run failed: ${r.stderr}`);
        return r.wallMs;
      },
    },
    Math.max(3, Math.min(ctx.repeats, 5)),
  );
  const perNight = medians.replay / nights;
  return {
    id: 'replay',
    title: `\`replay\` of two months on the example (${FROM}..${TO})`,
    ratioOf: 'replay, per night / one `mini-dbt run` in a fresh process',
    ratio: perNight / medians.cliNight,
    measured: `${formatMs(medians.replay)} for ${nights} nights (${formatMs(perNight)} a night: run + exact stale check), in one process on one scratch copy; a spawned \`mini-dbt run\` costs ${formatMs(medians.cliNight)}`,
    target: 'report; one process, one scratch database',
    meets: null,
    note: `per night ${formatRatio(perNight / medians.cliNight)} of a spawned CLI run`,
  };
}
