import type { ModelNode } from '../compile/manifest.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { relationKind } from '../engine/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import { effectiveAsOf, timeSourcesOf } from '../state/effective-as-of.js';
import { addDays, dateRange, dayOfWeek, daysBetween } from '../feed/iso-date.js';
import { ancestors } from '../graph/walk-graph.js';
import { nodeReadsVar } from '../compile/node-reads-var.js';
import { exactStale } from '../analysis/exact-stale.js';
import { CarriedVerdicts } from '../analysis/carried-verdicts.js';
import { findModel } from '../analysis/find-node.js';
import { latenessReport } from '../analysis/lateness-report.js';
import { requireDateRange } from '../analysis/require-iso-date.js';
import { MAX_DAYS, requireWholeDays } from '../analysis/require-whole-days.js';
import { scratchWarehouse } from '../analysis/scratch-warehouse.js';
import { timeColumns } from '../analysis/time-columns.js';
import { wentStale, type StaleDay, type WentStale } from '../analysis/went-stale.js';
import { lateLandings, type LateLanding } from '../analysis/late-landings.js';
import type { LateRowsNotApplied } from '../state/node-result.js';
import { checkKeepTarget } from './keep-path.js';
import { run } from './run.js';
import { loadSession, withBusyTimeout, withVars, type Session, type SessionOptions } from './session.js';

export interface ReplayOptions extends SessionOptions {
  readonly model: string;
  /** First night replayed; the table starts as a full build as of the night before. */
  readonly from: string;
  /** Last night replayed, included. */
  readonly to: string;
  /** Every Sunday night R also rewrites R-N..R as of R. */
  readonly weeklyBackfill?: number;
  /** Also replay with the required lookback (default true). */
  readonly compareRequired?: boolean;
  /** Replay the second pass with this lookback instead of the required one (e.g. 10 against the project's 11). */
  readonly compareLookback?: number;
  readonly session?: Session;
  readonly onNight?: (progress: ReplayProgress) => void;
  /** Save the simulated warehouse (after the replay with the project's lookback) to this new file. */
  readonly keepAs?: string;
  /**
   * Each night's exact check, and the final one, rebuilds only the partitions
   * the run ledger cannot vouch for (stale --candidates: it trusts the model's
   * incremental runs to compute what its full refresh does), and of those only
   * the ones a landing or a write put in doubt since the night before (the
   * others keep their verdict: carried-verdicts.ts); default false: a full
   * rebuild each night.
   */
  readonly candidates?: boolean;
}

export interface ReplayProgress {
  readonly pass: 'replay' | 'required';
  readonly night: string;
  /** 1-based, over both passes. */
  readonly done: number;
  readonly total: number;
  readonly stale: number;
}

export interface ReplayNight {
  readonly run_date: string;
  /** Partitions differing from a full rebuild as of run_date, after that night's runs. */
  readonly stale: string[];
  /** Whether the weekly backfill ran that night. */
  readonly weekly_backfill: boolean;
  /** The partitions the night's incremental run rewrote, first and last (null: none). */
  readonly window: readonly [string, string] | null;
}

export interface ReplayWorst {
  readonly run_date: string;
  readonly stale: string[];
  readonly stale_count: number;
}

export interface ReplayPass {
  readonly lookback: number;
  readonly nights: ReplayNight[];
  /** Still differing from a full rebuild of everything landed (the live as-of) after the last night. */
  readonly final_stale: string[];
  /** The first night with the most stale partitions. */
  readonly worst: ReplayWorst | null;
  /** Each time a partition went stale (stale after a night, not after the one before): the night, and the late rows that did it. */
  readonly went_stale: WentStale[];
}

export interface ReplayResult extends ReplayPass {
  readonly model: string;
  readonly from: string;
  readonly to: string;
  readonly weekly_backfill: number | null;
  /** The longest lateness in the model's raw sources: the smallest lookback that misses nothing. */
  readonly required_lookback: number;
  /** The same replay with the required lookback, or compareLookback (null when not asked, or the lookback already suffices). */
  readonly with_required_lookback: ReplayPass | null;
  /** Late rows per night and day: the night's run saw them first (the same in every pass; replay --grid marks them). */
  readonly late_landings: LateLanding[];
  /** Where the simulated warehouse was saved (--keep). */
  readonly kept_as: string | null;
}

/**
 * Simulate the nightly job on a scratch copy of the warehouse (the live file
 * is only read): a full build as of the night before `from`, then one
 * incremental run a night with as_of = that night (plus the weekly backfill
 * on Sundays), comparing the table with a full rebuild as of each night.
 * One process, one session, one copy; the engine runs each night.
 */
export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  // A session given with a --busy-timeout takes it too: the copy, its opens and every nightly run wait as long.
  const base = options.session ? withBusyTimeout(options.vars ? withVars(options.session, options.vars) : options.session, options.busyTimeoutMs) : loadSession(options);
  const node = findModel(base.manifest, options.model);
  const { start: from, end: to } = requireDateRange(options.from, options.to, ['--from', '--to']);
  if (daysBetween(from, to) >= MAX_DAYS) throw new ProjectError(`--from ${from} --to ${to} is ${daysBetween(from, to) + 1} nights; a replay simulates at most ${MAX_DAYS}`);
  const weekly = options.weeklyBackfill;
  if (weekly !== undefined) requireWholeDays(weekly, '--weekly-backfill');
  if (node.settings.materialized !== 'incremental') {
    throw new ProjectError(`model '${node.name}' is a ${node.settings.materialized}: it is rebuilt in full every night, so a replay has nothing to show`, { hint: 'replay an incremental model' });
  }
  // E176: each night is a run with as_of = that night; a model that never reads it would see every row every night.
  if (!nodeReadsVar(base.manifest, base.graph, node.uniqueId, 'as_of')) {
    throw new ProjectError(`model '${node.name}' does not read var('as_of') (nor does anything it is built from): every replayed night would read every row landed so far, so a replay cannot show what past nights saw`, {
      hint: "filter its raw rows on the rows landed by the night, e.g. where loaded_at <= '{{ var(\"as_of\") }}', as the example's models do",
    });
  }
  const lookback = requireWholeDays(base.manifest.vars.lookback_days ?? 0, "var 'lookback_days'");
  const cliVars = options.vars ?? {};
  const keep = options.keepAs === undefined ? undefined : checkKeepTarget(options.keepAs, base.project);
  const keepAs = keep?.path;
  const scratch = scratchWarehouse(base);
  try {
    // The model as the copy has it (on a server, its relation is in the scratch schema).
    const node = findModel(scratch.session.manifest, options.model);
    await ensureSources(scratch.session, node);
    const db = openProjectWarehouse(scratch.session.project);
    try {
      const required = requiredLookback(db, scratch.session, node);
      const nights = dateRange(from, to);
      const compare = options.compareLookback === undefined ? undefined : requireWholeDays(options.compareLookback, '--compare-lookback');
      // A second pass with another lookback means something only if the model's window reads var('lookback_days').
      const tunable = nodeReadsVar(base.manifest, base.graph, node.uniqueId, 'lookback_days');
      if (compare !== undefined && !tunable) throw new ProjectError(`--compare-lookback ${compare}: model '${node.name}' does not read var('lookback_days') (nor does anything it is built from), so its window is the same whatever the lookback`, { hint: 'drop --compare-lookback, or make the window read var(\'lookback_days\')' });
      const second = tunable && (compare !== undefined ? compare !== lookback : (options.compareRequired ?? true) && required > lookback);
      const total = nights.length * (second ? 2 : 1);
      const pass = (lb: number, name: ReplayProgress['pass'], offset: number) =>
        replayPass(db, scratch.session, node, { from, nights, lookback: lb, weekly, cliVars, candidates: options.candidates ?? false }, (night, i, staleCount) =>
          options.onNight?.({ pass: name, night, done: offset + i + 1, total, stale: staleCount }));
      const first = await pass(lookback, 'replay', 0);
      if (keep !== undefined) {
        keep.prepare();
        db.copyTo(keep.path);
      }
      const withRequired = second ? await pass(compare ?? required, 'required', nights.length) : null;
      const landings = lateLandings(db, timeSourcesOf(scratch.session.manifest, scratch.session.graph, node.uniqueId), nights);
      return { model: node.name, from, to, weekly_backfill: weekly ?? null, ...first, required_lookback: required, with_required_lookback: withRequired, late_landings: landings, kept_as: keepAs ?? null };
    } finally {
      db.close();
    }
  } finally {
    scratch.dispose();
  }
}

interface PassOptions {
  readonly from: string;
  readonly nights: readonly string[];
  readonly lookback: number;
  readonly weekly: number | undefined;
  readonly cliVars: Readonly<Record<string, unknown>>;
  readonly candidates: boolean;
}

async function replayPass(db: Warehouse, session: Session, node: ModelNode, o: PassOptions, onNight: (night: string, index: number, stale: number) => void): Promise<ReplayPass> {
  const select = [`+${node.name}`];
  const build = async (vars: Record<string, unknown>, fullRefresh = false) => {
    const result = await run({
      session, command: 'run', select, vars: { ...o.cliVars, ...vars }, fullRefresh, writeArtifacts: false, commandLine: `mini-dbt replay ${node.name}`,
      // The night before the replay must be a rebuild from scratch: a full_refresh: false model cannot be replayed.
      refuseIgnoredFullRefresh: `replay rebuilds ${node.name} and its upstream from scratch before the first night`,
    });
    const failure = result.results.find((r) => r.status !== 'success');
    if (failure) throw new ProjectError(`replay: the run with ${JSON.stringify(vars)} failed on ${failure.name}: ${failure.message ?? failure.status}`);
    return result.results.find((r) => r.uniqueId === node.uniqueId)?.lateRowsNotApplied;
  };
  const sources = timeSourcesOf(session.manifest, session.graph, node.uniqueId);
  // The days that went stale, explained after the last night (went-stale.ts: one scan of the raw rows for all).
  const wentStaleDays: StaleDay[] = [];
  let before = new Set<string>();
  // Each night's candidates keep their verdicts until a landing or a write puts them in doubt (carried-verdicts.ts).
  const carried = o.candidates ? new CarriedVerdicts(db, session.graph, node) : undefined;
  // The final check is against everything landed (the model's own as-of, no night's): with --candidates, as
  // `stale --candidates` checks it, the lateness up to the latest row landed upstream, from the last night's verdicts.
  const staleAt = (vars: { as_of?: string }) => {
    const manifest = withVars(session, { ...o.cliVars, ...vars }).manifest;
    // The night's as-of as the ledger has it (a date is the end of that day where loaded_at has times).
    const asOf = carried ? effectiveAsOf(db, manifest, session.graph, node.uniqueId) : null;
    const candidates = carried && asOf !== null ? carried.stale(manifest, asOf) : undefined;
    return candidates ?? exactStale(db, manifest, node, { detailPartitions: 0 }).stale;
  };
  await build({ as_of: addDays(o.from, -1) }, true);
  const nights: ReplayNight[] = [];
  for (const [i, night] of o.nights.entries()) {
    const late: LateRowsNotApplied | undefined = await build({ as_of: night, lookback_days: o.lookback });
    const sunday = o.weekly !== undefined && dayOfWeek(night) === 0;
    if (sunday) await build({ as_of: night, lookback_days: o.lookback, start: addDays(night, -o.weekly!), end: night });
    const stale = staleAt({ as_of: night });
    nights.push({ run_date: night, stale, weekly_backfill: sunday, window: late?.window ?? null });
    for (const p of stale) if (!before.has(p)) wentStaleDays.push({ partition: p, night, late });
    before = new Set(stale);
    onNight(night, i, stale.length);
    // A turn of the event loop between nights: an interrupt is handled there (the scratch copy is dropped).
    await new Promise((resolve) => setImmediate(resolve));
  }
  let worst: ReplayWorst | null = null;
  for (const n of nights) if (worst === null || n.stale.length > worst.stale_count) worst = { run_date: n.run_date, stale: n.stale, stale_count: n.stale.length };
  return { lookback: o.lookback, nights, final_stale: staleAt({}), worst, went_stale: wentStale(db, sources, wentStaleDays) };
}

/** Load the seeds the model reads when the copy lacks them (no live warehouse yet). */
async function ensureSources(session: Session, node: ModelNode): Promise<void> {
  const db = openProjectWarehouse(session.project);
  let missing: string[];
  try {
    missing = [...ancestors(session.graph, node.uniqueId)]
      .map((id) => session.manifest.nodes.get(id))
      .filter((n) => n !== undefined && n.resourceType !== 'model' && relationKind(db, n.alias, n.schema) === null)
      .map((n) => n!.name);
  } finally {
    db.close();
  }
  const seeds = [...new Set(missing)].filter((name) => session.manifest.seeds.has(name));
  const sources = [...new Set(missing)].filter((name) => !session.manifest.seeds.has(name));
  if (sources.length > 0) throw new ProjectError(`source table(s) ${sources.join(', ')} are not in the warehouse, so there is nothing to replay`);
  if (seeds.length > 0) {
    const result = await run({ session, command: 'seed', select: seeds, writeArtifacts: false });
    if (result.exitCode !== 0) throw new ProjectError(`replay: loading ${seeds.join(', ')} into the scratch copy failed`);
  }
}

function requiredLookback(db: Warehouse, session: Session, node: ModelNode): number {
  let required = 0;
  for (const source of timeSourcesOf(session.manifest, session.graph, node.uniqueId)) {
    if (source.settings.eventTime === undefined) continue;
    const report = latenessReport(db, { relation: source.alias, schema: source.schema, columns: timeColumns(source), lookback: 0 });
    required = Math.max(required, report.required_lookback);
  }
  return required;
}

