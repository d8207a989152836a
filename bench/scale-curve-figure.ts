/**
 * The scale curve (issue 18, "Also"): the nightly run, a 54-day backfill and
 * the exact stale check on histories 1, 10 and 30 times as long, each built
 * in turn in its own work directory (generated, seeded, fully built,
 * measured, deleted), so the night's cost can be seen to stay flat as the
 * history grows.
 *
 * The history grows in length, not in density: every scale has the example
 * feed's 1,000 orders a day and ends on 2026-12-31, x1 starting 2024-01-01
 * (1,096 days, 1.2M rows), x10 about 30 years earlier (12M rows), x30 about
 * 90 years earlier (36M rows). (`--scale N` instead multiplies the orders a
 * day, which multiplies a night's rows too: a nightly cannot be flat there.)
 * The generator streams (bench/history-feed.ts), so memory stays flat; the
 * peak RSS after each scale is printed.
 *
 * At each scale, in one process and one session:
 *  - nightly run (lookback 11, everything landed so far), the engine's 54-day
 *    backfill (`run --vars '{start, end}'`) and the `mini-dbt backfill`
 *    command's 54 days, interleaved, `repeats` rounds after a warm-up;
 *  - a full rebuild as of 2026-11-30 (timed once: the O(history) reference),
 *    then 31 nightly runs with lookback 3, so late refunds are missed;
 *  - as of 2026-12-31: `stale --candidates` (exact on the partitions the
 *    ledger cannot vouch for), `repeats` rounds after a warm-up, and the full
 *    exact comparison once (O(history): it rebuilds every partition), which
 *    must give the same answer.
 * Wall and CPU time (process.cpuUsage: SQLite runs on this thread) are both
 * reported: the scales cannot be interleaved, so the CPU time is the less
 * load-sensitive view of the same curve.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { backfill, loadSession, run, stale } from '../src/index.js';
import { addDays } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { writeHistory, type HistoryFile } from './history-feed.js';
import { copyExample, HISTORY_DAYS, mustSucceed, ORDERS_PER_DAY } from './history-workspace.js';
import { median, sideBySide } from './side-by-side.js';

const HISTORY_END = '2026-12-31';
const MODEL = 'daily_revenue';
const LOOKBACK = 11;
const BACKFILL_DAYS = 54;
const FIRST_NIGHT = '2026-12-01';
/** Nightly must stay flat: at most this much dearer at the largest scale than at the smallest. */
const FLAT = 1.5;

type Cost = 'nightly' | 'engine' | 'command' | 'candidates' | 'exactAll' | 'full';

interface Point {
  readonly scale: number;
  readonly rows: number;
  readonly setupMs: number;
  readonly loadAverage: number;
  readonly maxRssMiB: number;
  readonly wall: Record<Cost, number>;
  readonly cpu: Record<Cost, number>;
  readonly rebuilt: number | null;
  readonly checked: number;
  readonly staleCount: number;
  readonly sameAnswer: boolean;
}

/** Wall milliseconds of one piece of work, its CPU milliseconds pushed to `cpu`. */
async function measure(cpu: number[], work: () => unknown): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await work();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  return wall;
}

function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return Number.NaN; // not Linux
  }
}

async function measureScale(ctx: BenchContext, scale: number): Promise<Point> {
  const dir = ctx.path(`curve-x${scale}`);
  const load = loadAverage();
  try {
    copyExample(dir);
    const days = HISTORY_DAYS * scale;
    const t0 = performance.now();
    const history: HistoryFile = writeHistory({ path: join(dir, 'seeds', 'raw_orders.csv'), start: addDays(HISTORY_END, -(days - 1)), days, ordersPerDay: ORDERS_PER_DAY });
    const generatedMs = performance.now() - t0;
    const session = loadSession({ projectDir: dir });
    const t1 = performance.now();
    mustSucceed(await run({ session, command: 'build' }), `seeding and building the x${scale} history`);
    const setupMs = performance.now() - t1;
    ctx.log(`curve x${scale}: ${history.rows.toLocaleString('en-US')} rows ${history.start}..${history.end}, generated in ${(generatedMs / 1000).toFixed(1)} s, seeded and built in ${(setupMs / 1000).toFixed(1)} s (load ${load})`);

    const cpu: Record<Cost, number[]> = { nightly: [], engine: [], command: [], candidates: [], exactAll: [], full: [] };
    const select = [MODEL];
    const end = addDays(history.end, -6);
    const range = { start: addDays(end, -(BACKFILL_DAYS - 1)), end };
    const reason = 'bench: scale curve';
    const runs = await sideBySide(
      {
        nightly: () => measure(cpu.nightly, async () => mustSucceed(await run({ session, select, vars: { lookback_days: LOOKBACK }, writeArtifacts: false }), 'nightly run')),
        engine: () =>
          measure(cpu.engine, async () => mustSucceed(await run({ session, command: 'backfill', select, vars: range, reason, writeArtifacts: false }), 'engine backfill')),
        command: () =>
          measure(cpu.command, async () => {
            const result = await backfill({ session, model: MODEL, ...range, reason });
            if (result.exitCode !== 0) throw new Error(`backfill of ${BACKFILL_DAYS} days failed at x${scale}`);
          }),
      },
      ctx.repeats,
    );
    // Warm-up samples are in cpu[] too: keep the measured rounds only.
    for (const k of ['nightly', 'engine', 'command'] as const) cpu[k].splice(0, 1);
    ctx.log(`curve x${scale}: nightly ${formatMs(runs.medians.nightly)}, engine backfill ${formatMs(runs.medians.engine)}, command ${formatMs(runs.medians.command)}`);

    const full = await measure(cpu.full, async () =>
      mustSucceed(await run({ session, select, fullRefresh: true, vars: { as_of: addDays(FIRST_NIGHT, -1) }, writeArtifacts: false }), 'the full rebuild'),
    );
    for (let night = FIRST_NIGHT; night <= HISTORY_END; night = addDays(night, 1)) {
      mustSucceed(await run({ session, select, vars: { as_of: night, lookback_days: 3 }, writeArtifacts: false }), `the night of ${night}`);
    }
    const ask = (candidates: boolean) => stale({ session, model: MODEL, mode: 'exact', vars: { as_of: HISTORY_END }, candidates, notFinal: false, detailPartitions: 0 });
    const checks = await sideBySide({ candidates: () => measure(cpu.candidates, () => ask(true)) }, ctx.repeats);
    cpu.candidates.splice(0, 1);
    const answer = ask(true);
    let all: ReturnType<typeof ask> | undefined;
    const exactAll = await measure(cpu.exactAll, () => {
      all = ask(false);
    });
    const sameAnswer = JSON.stringify(answer.stale) === JSON.stringify(all?.stale);
    ctx.log(`curve x${scale}: full rebuild ${formatMs(full)}, stale --candidates ${formatMs(checks.medians.candidates)}, full exact comparison ${formatMs(exactAll)}`);
    return {
      scale,
      rows: history.rows,
      setupMs,
      loadAverage: load,
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      wall: { ...runs.medians, candidates: checks.medians.candidates, exactAll, full },
      cpu: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)])) as Record<Cost, number>,
      rebuilt: answer.rebuilt_partitions ?? null,
      checked: answer.partitions_checked,
      staleCount: answer.stale.length,
      sameAnswer,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Cost per 10x of history between the first and the last point: 1.0x is flat, 10x is linear. */
function slope(points: readonly Point[], cost: Cost, of: 'wall' | 'cpu'): number {
  const a = points[0]!;
  const b = points[points.length - 1]!;
  return (b[of][cost] / a[of][cost]) ** (1 / Math.log10(b.scale / a.scale));
}

function curve(points: readonly Point[], cost: Cost): string {
  const at = (of: 'wall' | 'cpu') => points.map((p) => `x${p.scale} ${formatMs(p[of][cost])}`).join(', ');
  return `wall ${at('wall')}; CPU ${at('cpu')}; slope per 10x of history: wall ${slope(points, cost, 'wall').toFixed(2)}x, CPU ${slope(points, cost, 'cpu').toFixed(2)}x`;
}

export async function scaleCurveFigures(ctx: BenchContext): Promise<Figure[]> {
  const scales = ctx.curveScales;
  const points: Point[] = [];
  for (const scale of scales) points.push(await measureScale(ctx, scale));
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const span = `x${first.scale} to x${last.scale}`;
  const growth = (cost: Cost) => last.wall[cost] / first.wall[cost];
  const histories = points.map((p) => `x${p.scale}: ${(p.rows / 1e6).toFixed(1)}M rows, set up in ${formatMs(p.setupMs)} at load ${p.loadAverage}, peak RSS ${p.maxRssMiB} MiB`).join('; ');
  const flatTarget = `<= ${FLAT}x from ${span} (flat: the same days of work at every scale)`;
  const flat = (id: string, title: string, cost: Cost, note?: string): Figure => ({
    id,
    title,
    ratioOf: `${span} history`,
    ratio: growth(cost),
    measured: curve(points, cost),
    target: flatTarget,
    meets: points.length > 1 ? growth(cost) <= FLAT : null,
    ...(note ? { note } : {}),
  });
  return [
    flat('scale-curve-nightly', `scale curve: nightly run of daily_revenue (lookback ${LOOKBACK}) as the history grows ${span} (same 1,000 orders a day, longer history)`, 'nightly', histories),
    flat('scale-curve-backfill', `scale curve: backfill of ${BACKFILL_DAYS} days, engine (\`run --vars '{start, end}'\`)`, 'engine'),
    {
      ...flat('scale-curve-backfill-command', `scale curve: \`mini-dbt backfill\` of ${BACKFILL_DAYS} days (checks, totals, raw counts, publish)`, 'command'),
      target: 'report (its raw count of a full reload reads the whole history)',
      meets: null,
    },
    {
      ...flat('scale-curve-stale-candidates', 'scale curve: `stale --candidates` (exact on what the ledger cannot vouch for), after 31 nights with lookback 3', 'candidates'),
      note: points
        .map((p) => `x${p.scale}: ${p.rebuilt ?? 'all'} of ${p.checked} partitions rebuilt, ${p.staleCount} stale, ${p.sameAnswer ? 'the same' : 'NOT the same'} as the full comparison`)
        .join('; '),
      meets: points.length > 1 ? growth('candidates') <= FLAT && points.every((p) => p.sameAnswer) : null,
    },
    {
      ...flat('scale-curve-full', 'scale curve, for reference: full rebuild of daily_revenue and the full exact comparison (`stale` without --candidates), one sample each', 'full'),
      target: 'report (O(history): 10x a decade is linear)',
      meets: null,
      note: `full exact comparison: ${curve(points, 'exactAll')}`,
    },
  ];
}
