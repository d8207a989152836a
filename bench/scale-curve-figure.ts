/**
 * The scale curve (issue 18, "Also"): the nightly run, a 54-day backfill and
 * the exact stale check on histories 1, 10 and 30 times as long, each built
 * in turn in its own work directory (generated, seeded, fully built,
 * measured, deleted; the reference, the smallest, at the end), so the
 * night's cost can be seen to stay flat as the history grows.
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
 *    ledger cannot vouch for), `repeats` rounds after a warm-up (the reference
 *    is set up the same way again first), and the full exact comparison once
 *    (O(history): it rebuilds every partition), which must give the same
 *    answer.
 * The smallest scale is the reference and is kept to the end: each larger
 * scale's runs and checks are measured side by side with the reference's
 * (interleaved in the same rounds), so each ratio, and the slope, is one
 * measured in the same minutes on a shared machine, not two runs minutes
 * apart (a first version measured the scales one after another; its x1 to x30
 * nightly ratio moved with the load from 1.4x in CPU to 2.7x in wall time).
 * Wall and CPU time (process.cpuUsage: SQLite runs on this thread) are both
 * reported.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { backfill, loadSession, run, stale, type Session } from '../src/index.js';
import { addDays } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, type Figure } from './figure.js';
import { writeHistory, type HistoryFile } from './history-feed.js';
import { copyExample, HISTORY_DAYS, mustSucceed, ORDERS_PER_DAY } from './history-workspace.js';
import { median, sideBySide, type Measured } from './side-by-side.js';

const HISTORY_END = '2026-12-31';
const MODEL = 'daily_revenue';
const LOOKBACK = 11;
const BACKFILL_DAYS = 54;
const FIRST_NIGHT = '2026-12-01';
/** Nightly must stay flat: at most this much dearer at the largest scale than at the smallest. */
const FLAT = 1.5;

type Paired = 'nightly' | 'engine' | 'command' | 'candidates';
type Once = 'exactAll' | 'full';
type Cost = Paired | Once;

interface Workspace {
  readonly scale: number;
  readonly dir: string;
  readonly session: Session;
  readonly history: HistoryFile;
  readonly setupMs: number;
  readonly loadAverage: number;
}

interface Point {
  readonly ws: Workspace;
  readonly maxRssMiB: number;
  /** Medians at this scale. */
  readonly wall: Record<Cost, number>;
  readonly cpu: Record<Cost, number>;
  /** Medians of the reference scale measured in the same rounds (the point's own for the reference). */
  readonly refWall: Record<Paired, number>;
  readonly refCpu: Record<Paired, number>;
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

async function buildWorkspace(ctx: BenchContext, scale: number): Promise<Workspace> {
  const dir = ctx.path(`curve-x${scale}`);
  const load = loadAverage();
  copyExample(dir);
  const days = HISTORY_DAYS * scale;
  const t0 = performance.now();
  const history = writeHistory({ path: join(dir, 'seeds', 'raw_orders.csv'), start: addDays(HISTORY_END, -(days - 1)), days, ordersPerDay: ORDERS_PER_DAY });
  const generatedMs = performance.now() - t0;
  const session = loadSession({ projectDir: dir });
  const t1 = performance.now();
  mustSucceed(await run({ session, command: 'build' }), `seeding and building the x${scale} history`);
  const setupMs = performance.now() - t1;
  ctx.log(`curve x${scale}: ${history.rows.toLocaleString('en-US')} rows ${history.start}..${history.end}, generated in ${(generatedMs / 1000).toFixed(1)} s, seeded and built in ${(setupMs / 1000).toFixed(1)} s (load ${load})`);
  return { scale, dir, session, history, setupMs, loadAverage: load };
}

const select = [MODEL];
const reason = 'bench: scale curve';

/** The nightly run, the engine's backfill and the command's, on one workspace. */
function runs(ws: Workspace, cpu: Record<Paired, number[]>): Record<'nightly' | 'engine' | 'command', Measured> {
  const { session } = ws;
  const end = addDays(ws.history.end, -6);
  const range = { start: addDays(end, -(BACKFILL_DAYS - 1)), end };
  return {
    nightly: () => measure(cpu.nightly, async () => mustSucceed(await run({ session, select, vars: { lookback_days: LOOKBACK }, writeArtifacts: false }), 'nightly run')),
    engine: () => measure(cpu.engine, async () => mustSucceed(await run({ session, command: 'backfill', select, vars: range, reason, writeArtifacts: false }), 'engine backfill')),
    command: () =>
      measure(cpu.command, async () => {
        const result = await backfill({ session, model: MODEL, ...range, reason });
        if (result.exitCode !== 0) throw new Error(`backfill of ${BACKFILL_DAYS} days failed at x${ws.scale}`);
      }),
  };
}

/** A full build as of the night before FIRST_NIGHT, then one nightly run a night with lookback 3 (late refunds missed); returns the full build's wall ms. */
async function missLateRows(ws: Workspace, cpu: number[]): Promise<number> {
  const { session } = ws;
  const full = await measure(cpu, async () => mustSucceed(await run({ session, select, fullRefresh: true, vars: { as_of: addDays(FIRST_NIGHT, -1) }, writeArtifacts: false }), 'the full rebuild'));
  for (let night = FIRST_NIGHT; night <= HISTORY_END; night = addDays(night, 1)) {
    mustSucceed(await run({ session, select, vars: { as_of: night, lookback_days: 3 }, writeArtifacts: false }), `the night of ${night}`);
  }
  return full;
}

function ask(ws: Workspace, candidates: boolean) {
  return stale({ session: ws.session, model: MODEL, mode: 'exact', vars: { as_of: HISTORY_END }, candidates, notFinal: false, detailPartitions: 0 });
}

const emptyCpu = (): Record<Cost, number[]> => ({ nightly: [], engine: [], command: [], candidates: [], exactAll: [], full: [] });
const medianOf = <K extends string>(samples: Record<K, number[]>): Record<K, number> =>
  Object.fromEntries(Object.entries<number[]>(samples).map(([k, v]) => [k, median(v)])) as Record<K, number>;
/** sideBySide's warm-up round is in the CPU samples too: drop it. */
const dropWarmup = (cpu: Record<string, number[]>, keys: readonly string[]) => {
  for (const k of keys) cpu[k]!.splice(0, 1);
};

/** Measure a scale, side by side with the reference workspace when there is one. */
async function measureScale(ctx: BenchContext, ws: Workspace, ref: Workspace | undefined): Promise<Point> {
  const cpu = emptyCpu();
  const refCpu = emptyCpu();
  const own = runs(ws, cpu);
  const theirs = ref ? runs(ref, refCpu) : undefined;
  const ranRuns = await sideBySide<string>(
    { ...own, ...(theirs ? { refNightly: theirs.nightly, refEngine: theirs.engine, refCommand: theirs.command } : {}) },
    ctx.repeats,
  );
  dropWarmup(cpu, ['nightly', 'engine', 'command']);
  if (ref) dropWarmup(refCpu, ['nightly', 'engine', 'command']);
  const m = ranRuns.medians;
  ctx.log(`curve x${ws.scale}: nightly ${formatMs(m.nightly!)}, engine backfill ${formatMs(m.engine!)}, command ${formatMs(m.command!)}${ref ? ` (x${ref.scale} alongside: ${formatMs(m.refNightly!)}, ${formatMs(m.refEngine!)}, ${formatMs(m.refCommand!)})` : ''}`);

  const full = await missLateRows(ws, cpu.full);
  if (ref) await missLateRows(ref, []);
  const checks = await sideBySide<string>(
    {
      candidates: () => measure(cpu.candidates, () => ask(ws, true)),
      ...(ref ? { refCandidates: () => measure(refCpu.candidates, () => ask(ref, true)) } : {}),
    },
    ctx.repeats,
  );
  dropWarmup(cpu, ['candidates']);
  if (ref) dropWarmup(refCpu, ['candidates']);
  const answer = ask(ws, true);
  let all: ReturnType<typeof ask> | undefined;
  const exactAll = await measure(cpu.exactAll, () => {
    all = ask(ws, false);
  });
  const c = checks.medians;
  ctx.log(`curve x${ws.scale}: full rebuild ${formatMs(full)}, stale --candidates ${formatMs(c.candidates!)}${ref ? ` (x${ref.scale} alongside: ${formatMs(c.refCandidates!)})` : ''}, full exact comparison ${formatMs(exactAll)}`);
  const wall = { nightly: m.nightly!, engine: m.engine!, command: m.command!, candidates: c.candidates!, exactAll, full };
  const cpuMedians = medianOf(cpu);
  const refWall = ref ? { nightly: m.refNightly!, engine: m.refEngine!, command: m.refCommand!, candidates: c.refCandidates! } : wall;
  return {
    ws,
    maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    wall,
    cpu: cpuMedians,
    refWall,
    refCpu: ref ? medianOf(refCpu) : cpuMedians,
    rebuilt: answer.rebuilt_partitions ?? null,
    checked: answer.partitions_checked,
    staleCount: answer.stale.length,
    sameAnswer: JSON.stringify(answer.stale) === JSON.stringify(all?.stale),
  };
}

/** Per 10x of history: 1.0x is flat, 10x is linear. */
const per10x = (ratio: number, scaleRatio: number) => ratio ** (1 / Math.log10(scaleRatio));

/** A paired cost: each larger scale against the reference measured in the same rounds. */
function pairedCurve(points: readonly Point[], cost: Paired): { text: string; growth: number; growthCpu: number } {
  const ref = points[0]!;
  const last = points[points.length - 1]!;
  const at = points.map((p, i) =>
    i === 0
      ? `x${p.ws.scale} ${formatMs(p.wall[cost])} (CPU ${formatMs(p.cpu[cost])})`
      : `x${p.ws.scale} ${formatMs(p.wall[cost])} (CPU ${formatMs(p.cpu[cost])}) against x${ref.ws.scale} ${formatMs(p.refWall[cost])} (CPU ${formatMs(p.refCpu[cost])}) in the same rounds: ${(p.wall[cost] / p.refWall[cost]).toFixed(2)}x`,
  );
  const growth = last.wall[cost] / last.refWall[cost];
  const growthCpu = last.cpu[cost] / last.refCpu[cost];
  const span = last.ws.scale / ref.ws.scale;
  return { text: `${at.join('; ')}; per 10x of history: wall ${per10x(growth, span).toFixed(2)}x, CPU ${per10x(growthCpu, span).toFixed(2)}x`, growth, growthCpu };
}

/** A one-sample cost, scale after scale. */
function onceCurve(points: readonly Point[], cost: Once): { text: string; growth: number } {
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const at = (of: 'wall' | 'cpu') => points.map((p) => `x${p.ws.scale} ${formatMs(p[of][cost])}`).join(', ');
  const growth = last.wall[cost] / first.wall[cost];
  const span = last.ws.scale / first.ws.scale;
  return { text: `wall ${at('wall')}; CPU ${at('cpu')}; per 10x of history: wall ${per10x(growth, span).toFixed(2)}x, CPU ${per10x(last.cpu[cost] / first.cpu[cost], span).toFixed(2)}x`, growth };
}

export async function scaleCurveFigures(ctx: BenchContext): Promise<Figure[]> {
  const [first, ...rest] = ctx.curveScales;
  const ref = await buildWorkspace(ctx, first!);
  const points: Point[] = [];
  try {
    points.push(await measureScale(ctx, ref, undefined));
    for (const scale of rest) {
      const ws = await buildWorkspace(ctx, scale);
      try {
        points.push(await measureScale(ctx, ws, ref));
      } finally {
        rmSync(ws.dir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(ref.dir, { recursive: true, force: true });
  }
  const last = points[points.length - 1]!;
  const span = `x${points[0]!.ws.scale} to x${last.ws.scale}`;
  const histories = points
    .map((p) => `x${p.ws.scale}: ${(p.ws.history.rows / 1e6).toFixed(1)}M rows from ${p.ws.history.start}, set up in ${formatMs(p.ws.setupMs)} at load ${p.ws.loadAverage}, peak RSS ${p.maxRssMiB} MiB`)
    .join('; ');
  const flatTarget = `<= ${FLAT}x from ${span}, side by side (flat: the same days of work at every scale)`;
  const flat = (id: string, title: string, cost: Paired, note?: string): Figure => {
    const c = pairedCurve(points, cost);
    return { id, title, ratioOf: `x${last.ws.scale} / x${points[0]!.ws.scale} history, same rounds`, ratio: c.growth, measured: c.text, target: flatTarget, meets: c.growth <= FLAT, ...(note ? { note } : {}) };
  };
  const full = onceCurve(points, 'full');
  return [
    flat('scale-curve-nightly', `scale curve: nightly run of daily_revenue (lookback ${LOOKBACK}) as the history grows ${span} (the same 1,000 orders a day over a longer history)`, 'nightly', histories),
    flat('scale-curve-backfill', `scale curve: backfill of ${BACKFILL_DAYS} days, engine (\`run --vars '{start, end}'\`)`, 'engine'),
    {
      ...flat('scale-curve-backfill-command', `scale curve: \`mini-dbt backfill\` of ${BACKFILL_DAYS} days (checks, totals, raw counts, publish)`, 'command'),
      target: 'report (its raw count of a full reload reads the whole history)',
      meets: null,
    },
    (() => {
      const f = flat('scale-curve-stale-candidates', 'scale curve: `stale --candidates` (exact on what the ledger cannot vouch for), after 31 nights with lookback 3', 'candidates');
      return {
        ...f,
        note: points.map((p) => `x${p.ws.scale}: ${p.rebuilt ?? 'all'} of ${p.checked} partitions rebuilt, ${p.staleCount} stale, ${p.sameAnswer ? 'the same' : 'NOT the same'} as the full comparison`).join('; '),
        meets: f.meets === true && points.every((p) => p.sameAnswer),
      };
    })(),
    {
      id: 'scale-curve-full',
      title: 'scale curve, for reference: full rebuild of daily_revenue and the full exact comparison (`stale` without --candidates), one sample each, scale after scale',
      ratioOf: `x${last.ws.scale} / x${points[0]!.ws.scale} history, one sample each`,
      ratio: full.growth,
      measured: full.text,
      target: 'report (O(history): 10x per 10x is linear)',
      meets: null,
      note: `full exact comparison: ${onceCurve(points, 'exactAll').text}`,
    },
  ];
}
