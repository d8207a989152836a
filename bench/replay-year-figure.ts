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
 *
 * Its floor, measured in the same rounds: an exact check must rebuild each
 * day a row landed for since the night before, outside the night's window
 * (the run rewrote the window; a day with no new row keeps its verdict),
 * with the model's SQL. The bare side runs exactly those SELECTs (the
 * model's range SQL as compile renders it, one per run of consecutive days,
 * into a temp table) and nothing else, so runs alone + bare checks is what
 * the replay cannot go below with a black-box model: its SQL must be
 * evaluated on every such day.
 */
import { compile, openSessionWarehouse, replay, run } from '../src/index.js';
import { minimalRanges } from '../src/analysis/minimal-ranges.js';
import { addDays, dateRange } from '../src/feed/iso-date.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { mustSucceed } from './history-workspace.js';
import { median, sideBySide, timed } from './side-by-side.js';

const FROM = '2026-01-01';
const TO = '2026-12-31';
const LOOKBACK = 3;
/** The lookback of issue 18's nightly figure (the example project's own is 3): late enough rows still outrun it, but few. */
const NIGHTLY_LOOKBACK = 11;

/** Sentinel vars: compile renders the model's range SQL once, each night's SQL replaces them. */
const SENTINEL = { start: '1901-02-03', end: '1902-03-04', as_of: '1903-04-05' };

/** The model's range SELECT for (start, end, as_of), from one compile: each sentinel must appear exactly once. */
function rangeSql(dir: string, model: string): (start: string, end: string, asOf: string) => string {
  const [compiled] = compile({ projectDir: dir, select: [model], vars: { ...SENTINEL, lookback_days: LOOKBACK }, writeArtifacts: false });
  const sql = compiled?.incrementalSql;
  if (!sql) throw new Error(`compile gave no incremental SELECT for ${model}`);
  for (const value of Object.values(SENTINEL)) {
    if (sql.split(`'${value}'`).length !== 2) throw new Error(`the range SQL of ${model} does not hold '${value}' exactly once: the floor cannot be rendered night by night`);
  }
  return (start, end, asOf) => sql.replace(`'${SENTINEL.start}'`, `'${start}'`).replace(`'${SENTINEL.end}'`, `'${end}'`).replace(`'${SENTINEL.as_of}'`, `'${asOf}'`);
}

export async function replayYearFigure(ctx: BenchContext): Promise<Figure> {
  const { dir, session } = await ctx.history();
  const model = 'daily_revenue';
  const nights = dateRange(FROM, TO);
  const staleAtEnd: Record<number, number> = {};
  const cpu: Record<string, number[]> = {};
  // The days each night's check must rebuild: a row for them landed that night, before the run's window.
  const db = openSessionWarehouse(session, {});
  const render = rangeSql(dir, model);
  const lateDays = db.prepare('select distinct order_date as day from raw_orders where load_date > ? and load_date <= ? and order_date < ? order by 1');
  const checks = nights.map((night) => {
    const days = (lateDays.all(addDays(night, -1), night, addDays(night, -LOOKBACK)) as { day: string }[]).map((r) => r.day);
    return { days: days.length, sql: minimalRanges(days).map((r) => render(r.start, r.end, night)) };
  });
  const dayRebuilds = checks.reduce((n, c) => n + c.days, 0);
  const bareChecks = (): number => {
    const t0 = performance.now();
    for (const check of checks) {
      for (const sql of check.sql) {
        db.exec(`create temp table bench_floor_check as ${sql}`);
        db.exec('drop table bench_floor_check');
      }
    }
    return performance.now() - t0;
  };
  const withCpu = (key: string, work: () => Promise<void>) => async () => {
    const before = process.cpuUsage();
    const ms = await timed(work);
    const used = process.cpuUsage(before);
    (cpu[key] ??= []).push((used.user + used.system) / 1000);
    return ms;
  };
  const replayWith = (lookback: number) => withCpu(`replay${lookback}`, async () => {
    const result = await replay({ session, model, from: FROM, to: TO, compareRequired: false, candidates: true, vars: { lookback_days: lookback } });
    staleAtEnd[lookback] = result.final_stale.length;
  });
  const aloneWith = (lookback: number) => withCpu(`alone${lookback}`, async () => {
    mustSucceed(await run({ session, select: [model], fullRefresh: true, vars: { as_of: addDays(FROM, -1) }, writeArtifacts: false }), 'the first build');
    for (const night of nights) mustSucceed(await run({ session, select: [model], vars: { as_of: night, lookback_days: lookback }, writeArtifacts: false }), `the night of ${night}`);
  });
  const { medians } = await sideBySide({
    replay: replayWith(LOOKBACK),
    alone: aloneWith(LOOKBACK),
    bareChecks,
    replayNightly: replayWith(NIGHTLY_LOOKBACK),
    aloneNightly: aloneWith(NIGHTLY_LOOKBACK),
  }, ctx.repeats, 0).finally(() => db.close());
  const ratio = medians.replay / medians.alone;
  const floor = (medians.alone + medians.bareChecks) / medians.alone;
  // The runs alone commit to the bench's warehouse, the replay to its scratch copy: under another process's disk
  // load the runs alone wait longer and the wall ratio flatters the replay, so the CPU ratio must meet the target too.
  const cpuOf = (key: string) => median(cpu[key] ?? []);
  const cpuRatio = cpuOf(`replay${LOOKBACK}`) / cpuOf(`alone${LOOKBACK}`);
  const nightlyRatio = medians.replayNightly / medians.aloneNightly;
  const rounds = ctx.repeats === 1 ? 'one measurement each' : `medians of ${ctx.repeats} rounds`;
  return {
    id: 'replay-year',
    title: `\`replay\` of ${nights.length} nights (lookback ${LOOKBACK}) with the exact stale check each night (--candidates) / the same nightly runs alone`,
    ratioOf: 'replay / nightly runs alone',
    ratio,
    measured: `replay ${formatMs(medians.replay)} (${formatMs(medians.replay / nights.length)} a night, ${staleAtEnd[LOOKBACK]} stale at the end; CPU ${formatMs(cpuOf(`replay${LOOKBACK}`))}), `
      + `runs alone ${formatMs(medians.alone)} (${formatMs(medians.alone / nights.length)} a night; CPU ${formatMs(cpuOf(`alone${LOOKBACK}`))}); CPU ratio ${cpuRatio.toFixed(2)}x; ${rounds}. `
      + `The floor with a black-box model: the checks must rebuild ${dayRebuilds.toLocaleString('en-US')} days over the ${nights.length} nights `
      + `(${(dayRebuilds / nights.length).toFixed(1)} a night: a row landed for them that night, before the run's ${LOOKBACK + 1}-day window), `
      + `whose SELECTs alone take ${formatMs(medians.bareChecks)} run bare (${formatRatio(medians.bareChecks / medians.alone)} of the runs alone): `
      + `runs alone + bare checks is ${floor.toFixed(2)}x the runs alone, and the replay is ${(medians.replay / (medians.alone + medians.bareChecks)).toFixed(2)}x that floor. `
      + `With the nightly figure's lookback of ${NIGHTLY_LOOKBACK}, in the same rounds: replay ${formatMs(medians.replayNightly)} `
      + `(${staleAtEnd[NIGHTLY_LOOKBACK]} stale at the end; CPU ${formatMs(cpuOf(`replay${NIGHTLY_LOOKBACK}`))}), runs alone ${formatMs(medians.aloneNightly)} `
      + `(CPU ${formatMs(cpuOf(`alone${NIGHTLY_LOOKBACK}`))}): ${nightlyRatio.toFixed(2)}x, CPU ${(cpuOf(`replay${NIGHTLY_LOOKBACK}`) / cpuOf(`alone${NIGHTLY_LOOKBACK}`)).toFixed(2)}x`,
    target: '<= 1.5x (issue 18), in wall and in CPU time',
    meets: ratio <= 1.5 && cpuRatio <= 1.5,
  };
}
