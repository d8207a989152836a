import { warehouseExists } from '../engine/warehouse-exists.js';
import type { ModelNode } from '../compile/manifest.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { replacesRows } from '../materialize/incremental/strategy-registry.js';
import { ProjectError } from '../errors/project-error.js';
import { effectiveAsOf } from '../state/effective-as-of.js';
import type { RunEvent } from '../state/node-result.js';
import { selectNodes } from '../graph/select-nodes.js';
import { descendants } from '../graph/walk-graph.js';
import { backfillChecks, plannedAudits, previewBackfill, type BackfillPreview } from '../analysis/backfill-preview.js';
import { backfillCost, type BackfillCost } from '../analysis/backfill-cost.js';
import { keyPartitions, type KeyPartitions } from '../analysis/key-partitions.js';
import type { PredictedChanges } from '../analysis/predicted-changes.js';
import { checkStatuses, type BackfillCheck } from '../analysis/check-statuses.js';
import { rawReadCounts } from '../analysis/raw-read-counts.js';
import { exactStale } from '../analysis/exact-stale.js';
import { findModel } from '../analysis/find-node.js';
import { minimalRanges, type PartitionRange } from '../analysis/minimal-ranges.js';
import { partitionTotals, type Totals } from '../analysis/range-totals.js';
import { requireDateOrTimeRange } from '../analysis/require-iso-date.js';
import { dateRange, isIsoDate } from '../feed/iso-date.js';
import type { BackfillRange as GuardedBackfill } from '../invocation/run-context.js';
import { shellWord } from '../invocation/shell-word.js';
import { hasTimeOfDay } from '../feed/iso-hour.js';
import { run, type RunResult } from './run.js';
import { loadSession, withVars, type Session, type SessionOptions } from './session.js';
import { stale } from './stale.js';

export interface BackfillOptions extends SessionOptions {
  readonly model: string;
  readonly start?: string;
  readonly end?: string;
  /** Take the ranges from `stale` (the minimal ranges covering the stale partitions). */
  readonly stale?: boolean;
  /** How --stale finds them (default exact). */
  readonly staleMode?: 'exact' | 'fast';
  /** Exactly these partitions (the fewest ranges covering them). */
  readonly partitions?: readonly string[];
  /** The partitions these entity keys (e.g. order ids) touch in the raw input, found through `keyColumn`. */
  readonly keys?: readonly string[];
  /** The raw input's column the keys are values of (default: its `id` or first `*_id` column, e.g. order_id). */
  readonly keyColumn?: string;
  /** Why: recorded in the ledger. Required unless dryRun. */
  readonly reason?: string;
  readonly dryRun?: boolean;
  /** What to build: the model (default), or e.g. 'daily_revenue+' to rebuild its descendants too. */
  readonly select?: readonly string[];
  readonly commandLine?: string;
  readonly onEvent?: (event: RunEvent) => void;
  readonly writeArtifacts?: boolean;
  readonly session?: Session;
}

export interface BackfillRange extends BackfillPreview {
  /** The range's rows and totals in the live table before and after (after: null when not published). */
  readonly before: Totals;
  readonly after: Totals | null;
  readonly status: 'planned' | 'success' | 'error' | 'not run';
  readonly invocationId?: string;
  readonly message?: string;
}

export interface DownstreamModel {
  readonly name: string;
  readonly materialized: string;
  /** Rebuilt by this command (selected with model+). */
  readonly rebuilt: boolean;
  /** After the backfill: differs from a rebuild on the new numbers (views never do). */
  readonly stale: boolean | null;
}

export interface BackfillResult {
  readonly model: string;
  readonly dryRun: boolean;
  readonly reason: string | null;
  /** Everything landed so far: the latest loaded_at upstream. */
  readonly asOf: string | null;
  readonly partitionColumn: string;
  readonly ranges: BackfillRange[];
  /** With keys: the partitions each key touches. */
  readonly keys?: KeyPartitions;
  /**
   * Every check and audit of the publish, with its outcome: pass (ran, found
   * nothing), warn (an audit of severity warn found rows; published anyway),
   * fail (stopped the publish), not run, planned (a dry run: audits run only
   * inside the publish).
   */
  readonly checks: BackfillCheck[];
  /** A dry run: what the backfill would change, partition by partition and in total (null otherwise). */
  readonly changes: PredictedChanges | null;
  /** Raw rows read against a full rebuild, and why the ratio is what it is. */
  readonly cost: BackfillCost | null;
  /** All ranges are published in one transaction: all of them, or none. */
  readonly oneTransaction: true;
  readonly downstream: DownstreamModel[];
  /** The equivalent `run` of each range. */
  readonly equivalentCommands: string[];
  readonly runs: RunResult[];
  readonly exitCode: number;
}

/**
 * Rewrite partitions of an incremental model with everything landed so far:
 * per range, the engine stages the rows, checks the key (not null, unique),
 * and publishes delete+insert in one transaction, recorded in the ledger as
 * command 'backfill' with its reason. Same as `run --vars '{start, end}'`.
 */
export async function backfill(options: BackfillOptions): Promise<BackfillResult> {
  const base = options.session ? (options.vars ? withVars(options.session, options.vars) : options.session) : loadSession(options);
  const { manifest, project } = base;
  const node = findModel(manifest, options.model);
  const part = checkBackfillable(node);
  const declaredAsOf = manifest.vars.as_of;
  if (declaredAsOf !== undefined && declaredAsOf !== null && declaredAsOf !== '') {
    throw new ProjectError(`a backfill reads everything landed so far; refusing as_of '${String(declaredAsOf)}' (an old as-of reproduces the old error)`, {
      hint: `drop as_of from --vars; to see what night ${String(declaredAsOf)} saw, use mini-dbt replay`,
    });
  }
  if (!options.dryRun && (options.reason === undefined || options.reason.trim() === '')) {
    throw new ProjectError('a backfill needs a reason (--reason "..."), recorded in the run ledger', { hint: `e.g. --reason "refunds landed after the 3-day lookback"` });
  }
  checkSelection(base, node, options.select);
  if (!warehouseExists(project.databasePath)) throw new ProjectError(`warehouse ${project.databasePath} does not exist yet`, { hint: 'run `mini-dbt seed` and `mini-dbt run` first' });

  const picked = [options.stale ? '--stale' : undefined, options.start !== undefined || options.end !== undefined ? '--start/--end' : undefined, options.keys !== undefined ? '--keys' : undefined, options.partitions !== undefined ? 'partitions' : undefined].filter(Boolean);
  if (picked.length > 1) throw new ProjectError(`give one of --start/--end, --stale or --keys, not ${picked.join(' and ')}`);
  if (options.keyColumn !== undefined && options.keys === undefined) throw new ProjectError('--key-column goes with --keys', { hint: `e.g. mini-dbt backfill ${node.name} --keys 50044,50071 --key-column order_id --reason "..."` });

  // A backfill that publishes reads, runs and reads again on one connection: opening one costs its set-up,
  // and closing one that read the history through its memory map costs unmapping it. A dry run only reads.
  const db = openProjectWarehouse(project, options.dryRun ? { readonly: true } : {});
  try {
    return await backfillOn(db, options, base, node, part);
  } finally {
    db.close();
  }
}

async function backfillOn(db: Warehouse, options: BackfillOptions, base: Session, node: ModelNode, part: string): Promise<BackfillResult> {
  const { manifest, graph } = base;
  const select = checkSelection(base, node, options.select);
  let ranges: PartitionRange[];
  let keys: KeyPartitions | undefined;
  let preview: BackfillPreview | undefined;
  let cost: BackfillCost | null = null;
  const previews: BackfillRange[] = [];
  if (relationKind(db, node.alias, node.schema) !== 'table') {
    throw new ProjectError(`model '${node.name}' is not built yet, so there is nothing to backfill`, { hint: `build it first: mini-dbt run --select ${node.name}` });
  }
  const asOf = effectiveAsOf(db, manifest, graph, node.uniqueId);
  if (options.stale) {
    ranges = stale({ session: base, model: node.name, mode: options.staleMode, detailPartitions: 0, db, notFinal: false }).ranges;
  } else if (options.keys !== undefined) {
    const given = [...new Set(options.keys.map((k) => k.trim()).filter((k) => k !== ''))];
    if (given.length === 0) throw new ProjectError('--keys names no key', { hint: `e.g. --keys 50044,50071 --key-column order_id` });
    keys = keyPartitions(db, manifest, graph, node, options.keyColumn, given, asOf);
    ranges = minimalRanges(keys.keys.flatMap((k) => keySpan(k.partitions)));
  } else if (options.partitions !== undefined) {
    ranges = minimalRanges(options.partitions.map((p) => requireDateOrTimeRange(p, p).start));
  } else {
    if (options.start === undefined || options.end === undefined) {
      throw new ProjectError('a backfill needs --start and --end (or --stale, or --keys)', { hint: `e.g. mini-dbt backfill ${node.name} --start 2026-09-03 --end 2026-10-26 --reason "..."` });
    }
    ranges = [requireDateOrTimeRange(options.start, options.end)];
  }
  const guard = guardedBackfill(node, ranges);
  const columns = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
  if (options.dryRun && guard) {
    // The range's own session: a model whose ref() or config() reads start/end is captured again with them.
    const ranged = withVars(base, { ...(options.vars ?? {}), start: guard.start, end: guard.end });
    preview = previewBackfill(db, ranged.manifest, ranged.graph, ranged.manifest.nodes.get(node.uniqueId) as ModelNode, guard, asOf);
  }
  for (const range of ranges) {
    const counts = rawReadCounts(db, manifest, graph, node, range, asOf);
    const partitions = preview ? preview.partitions.filter((p) => inRange(p, range)) : [];
    const before = partitionTotals(db, qualifiedName(node.schema, node.alias), columns, part, range);
    const rows = partitions.reduce((n, p) => n + (preview?.rowsPerPartition?.[p] ?? 0), 0);
    previews.push({ start: range.start, end: range.end, partitions, rows, ...counts, checks: backfillChecks(node, range), before, after: null, status: options.dryRun ? 'planned' : 'not run' });
  }
  if (guard) {
    const rawRows = previews.reduce((n, r) => n + r.rawRows, 0);
    cost = backfillCost(db, manifest, graph, node, ranges, asOf, { rawRows, fullRebuildRawRows: previews[0]?.fullReloadRawRows ?? 0 });
  }
  const varValue = (v: string) => (hasTimeOfDay(v) ? `"${v}"` : v);
  const equivalentCommands = ranges.map((r) => `mini-dbt run --select ${node.name} --vars '{start: ${varValue(r.start)}, end: ${varValue(r.end)}}' --reason "..."`);
  const rebuilt = new Set(select.filter((id) => id !== node.uniqueId));
  const checkNames = guard ? backfillChecks(node, guard) : [];
  const result = { model: node.name, reason: options.reason ?? null, asOf, partitionColumn: part, equivalentCommands, cost, oneTransaction: true as const, ...(keys ? { keys } : {}) };
  if (options.dryRun || guard === undefined) {
    const checks: BackfillCheck[] = [
      ...checkNames.map((name) => ({ name, status: preview ? 'pass' as const : 'planned' as const })),
      ...(preview?.audits ?? []).map((test) => ({ name: `audit ${test}`, status: 'planned' as const })),
    ];
    return { ...result, dryRun: Boolean(options.dryRun), ranges: previews, checks, changes: preview?.changes ?? null, downstream: downstreamOf(base, node, rebuilt, null), runs: [], exitCode: 0 };
  }

  // Every range in one run, one publish: the model rendered once per range,
  // staged as one union, checked, then delete+insert and the ledger row in
  // one transaction. A check failing in any range rolls back every range.
  const auditWarnings: string[] = [];
  const outcome = await run({
    session: base,
    warehouse: db,
    command: 'backfill',
    select: select.map((id) => manifest.nodes.get(id)!.name),
    vars: { ...(options.vars ?? {}), start: guard.start, end: guard.end },
    reason: options.reason,
    backfill: guard,
    commandLine: options.commandLine ?? `mini-dbt backfill ${node.name} --start ${shellWord(guard.start)} --end ${shellWord(guard.end)}`,
    onEvent: (event) => {
      if (event.type === 'log' && event.message.startsWith(`${node.name}: audit `)) auditWarnings.push(event.message.slice(node.name.length + 2));
      options.onEvent?.(event);
    },
    writeArtifacts: options.writeArtifacts,
  });
  const mine = outcome.results.find((r) => r.uniqueId === node.uniqueId);
  const ok = mine?.status === 'success';
  const audits = plannedAudits(mine?.plan);
  const checks = checkStatuses(checkNames, audits, ok ? null : (mine?.message ?? ''), auditWarnings);
  // The totals after and the downstream models' staleness, read on one connection.
  const [done, downstream] = ((d: Warehouse) => {
    const columns = relationColumns(d, node.alias, { schema: node.schema }).map((c) => c.name);
    const ranges = previews.map((preview): BackfillRange => {
      const partitions = ok ? mine.partitions.map(String).filter((p) => inRange(p, preview)) : [];
      const after = ok ? partitionTotals(d, qualifiedName(node.schema, node.alias), columns, part, { start: preview.start, end: preview.end }) : null;
      return {
        ...preview,
        partitions,
        rows: after?.rows ?? 0,
        after,
        status: ok ? 'success' : 'error',
        invocationId: outcome.invocationId,
        ...(ok ? {} : { message: mine?.message ?? undefined }),
      };
    });
    return [ranges, downstreamOf(base, node, rebuilt, d)] as const;
  })(db);
  return { ...result, dryRun: false, ranges: done, checks, changes: null, downstream, runs: [outcome], exitCode: outcome.exitCode };
}

/** The engine's backfill of these ranges: one range, or several inside their envelope (undefined: nothing to do). */
function guardedBackfill(node: ModelNode, ranges: readonly PartitionRange[]): GuardedBackfill | undefined {
  if (ranges.length === 0) return undefined;
  const start = ranges[0]!.start;
  const end = ranges[ranges.length - 1]!.end;
  return { start, end, guarded: node.uniqueId, ...(ranges.length > 1 ? { ranges } : {}) };
}

/**
 * The days a key's backfill rewrites: every day from its first to its last.
 * A model that filters raw rows by day before picking an order's latest
 * version (the example's, for its index) sees an order whose day moved only
 * when one range holds both its days; the days between are rewritten with
 * everything landed too.
 */
function keySpan(partitions: readonly string[]): string[] {
  const first = partitions[0];
  const last = partitions[partitions.length - 1];
  return first !== undefined && last !== undefined && isIsoDate(first) && isIsoDate(last) ? dateRange(first, last) : [...partitions];
}

/** A partition in a range of dates counts by its date; in any other range (hours, months), as it is written. */
const inRange = (p: string, r: PartitionRange) => {
  const key = isIsoDate(r.start) && isIsoDate(r.end) ? p.slice(0, 10) : p;
  return key >= r.start && key <= r.end;
};

function checkBackfillable(node: ModelNode): string {
  if (node.settings.materialized !== 'incremental') {
    throw new ProjectError(`model '${node.name}' is a ${node.settings.materialized}, rebuilt in full on every run; a backfill rewrites partitions of an incremental model`, {
      hint: `rebuild it: mini-dbt run --select ${node.name}`,
    });
  }
  const { strategy, uniqueKeyColumns } = node.settings;
  if (!replacesRows(strategy, uniqueKeyColumns)) {
    const keyless = strategy !== 'append' && uniqueKeyColumns.length === 0 ? ' without a unique_key' : '';
    throw new ProjectError(`model '${node.name}' uses incremental_strategy '${strategy}'${keyless}, which never deletes: a backfill would insert its range a second time`, {
      hint: `rebuild it: mini-dbt run --select ${node.name} --full-refresh, or give it a unique_key and delete+insert`,
    });
  }
  const part = node.settings.partitionColumn;
  if (!part) {
    throw new ProjectError(`model '${node.name}' declares no partition_by, so there are no partitions to backfill`, {
      location: { file: node.file.path },
      hint: "declare it: {{ config(partition_by='order_date') }}",
    });
  }
  return part;
}

/** The models this backfill builds, in the engine's order: the model, plus descendants selected with model+. */
function checkSelection(session: Session, node: ModelNode, select: readonly string[] | undefined): string[] {
  if (!select || select.length === 0) return [node.uniqueId];
  const chosen = selectNodes(session.graph, { select, resourceTypes: ['model'] });
  if (!chosen.has(node.uniqueId)) {
    throw new ProjectError(`--select ${select.join(' ')} does not include '${node.name}'`, { hint: `use --select ${node.name}+ to backfill it and rebuild what depends on it` });
  }
  const below = descendants(session.graph, node.uniqueId);
  const extra = [...chosen].filter((id) => id !== node.uniqueId && !below.has(id));
  if (extra.length > 0) {
    const names = extra.map((id) => session.manifest.nodes.get(id)?.name ?? id);
    throw new ProjectError(`--select may only add models downstream of '${node.name}'; not downstream: ${names.join(', ')}`, { hint: `--select ${node.name}+` });
  }
  return [...chosen];
}

/** The models downstream of the backfilled one; with `db` (after a publish), whether each is now stale (null: not built). */
function downstreamOf(session: Session, node: ModelNode, rebuilt: ReadonlySet<string>, db: Warehouse | null): DownstreamModel[] {
  const out: DownstreamModel[] = [];
  for (const id of descendants(session.graph, node.uniqueId)) {
    const child = session.manifest.nodes.get(id);
    if (child?.resourceType !== 'model') continue;
    const materialized = child.settings.materialized;
    let isStale: boolean | null = null;
    if (db !== null) {
      isStale = materialized === 'view' || materialized === 'ephemeral'
        ? false
        : relationKind(db, child.alias, child.schema) === null ? null : exactStale(db, session.manifest, child, { detailPartitions: 0 }).stale.length > 0;
    }
    out.push({ name: child.name, materialized, rebuilt: rebuilt.has(id), stale: isStale });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
