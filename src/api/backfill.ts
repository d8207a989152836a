import { existsSync } from 'node:fs';
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
import { backfillChecks, previewBackfill, type BackfillPreview } from '../analysis/backfill-preview.js';
import { rawReadCounts } from '../analysis/raw-read-counts.js';
import { exactStale } from '../analysis/exact-stale.js';
import { findModel } from '../analysis/find-node.js';
import type { PartitionRange } from '../analysis/minimal-ranges.js';
import { partitionTotals, type Totals } from '../analysis/range-totals.js';
import { requireDateRange } from '../analysis/require-iso-date.js';
import type { Project } from '../project/project.js';
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
  const { manifest, graph, project } = base;
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
  const select = checkSelection(base, node, options.select);
  if (!existsSync(project.databasePath)) throw new ProjectError(`warehouse ${project.databasePath} does not exist yet`, { hint: 'run `mini-dbt seed` and `mini-dbt run` first' });

  let ranges: PartitionRange[];
  if (options.stale) {
    if (options.start !== undefined || options.end !== undefined) throw new ProjectError('give either --stale or --start/--end, not both');
    ranges = stale({ session: base, model: node.name, mode: options.staleMode, detailPartitions: 0 }).ranges;
  } else {
    if (options.start === undefined || options.end === undefined) {
      throw new ProjectError('a backfill needs --start and --end (or --stale)', { hint: `e.g. mini-dbt backfill ${node.name} --start 2026-09-03 --end 2026-10-26 --reason "..."` });
    }
    ranges = [requireDateRange(options.start, options.end)];
  }

  // One range: its checks run on the staged rows inside the publish (a failure
  // there rolls the one transaction back, so nothing is written), and the
  // model's SELECT runs once. Several ranges (or a dry run): every range is
  // staged and checked read-only first, so a range that would fail stops
  // the backfill before any range is published.
  const checkFirst = Boolean(options.dryRun) || ranges.length > 1;
  const db = openProjectWarehouse(project, { readonly: true });
  let asOf: string | null;
  const previews: BackfillRange[] = [];
  try {
    if (relationKind(db, node.alias, node.schema) !== 'table') {
      throw new ProjectError(`model '${node.name}' is not built yet, so there is nothing to backfill`, { hint: `build it first: mini-dbt run --select ${node.name}` });
    }
    asOf = effectiveAsOf(db, manifest, graph, node.uniqueId);
    const columns = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
    for (const range of ranges) {
      // The range's own session: a model whose ref() or config() reads start/end is captured again with them.
      const ranged = checkFirst ? withVars(base, { ...(options.vars ?? {}), start: range.start, end: range.end }) : base;
      const preview: BackfillPreview = checkFirst
        ? previewBackfill(db, ranged.manifest, ranged.graph, ranged.manifest.nodes.get(node.uniqueId) as ModelNode, range, asOf)
        : { start: range.start, end: range.end, partitions: [], rows: 0, ...rawReadCounts(db, manifest, graph, node, range, asOf), checks: backfillChecks(node, range) };
      const before = partitionTotals(db, qualifiedName(node.schema, node.alias), columns, part, range);
      previews.push({ ...preview, before, after: null, status: options.dryRun ? 'planned' : 'not run' });
    }
  } finally {
    db.close();
  }
  const equivalentCommands = ranges.map((r) => `mini-dbt run --select ${node.name} --vars '{start: ${r.start}, end: ${r.end}}'`);
  const rebuilt = new Set(select.filter((id) => id !== node.uniqueId));
  const result = { model: node.name, reason: options.reason ?? null, asOf, partitionColumn: part, equivalentCommands };
  if (options.dryRun || ranges.length === 0) {
    return { ...result, dryRun: Boolean(options.dryRun), ranges: previews, downstream: downstreamOf(base, node, rebuilt, null), runs: [], exitCode: 0 };
  }

  const runs: RunResult[] = [];
  const done: BackfillRange[] = [];
  let failed = false;
  for (const [i, preview] of previews.entries()) {
    if (failed) {
      done.push(preview);
      continue;
    }
    const last = i === previews.length - 1;
    const outcome = await run({
      session: base,
      command: 'backfill',
      select: last ? select.map((id) => manifest.nodes.get(id)!.name) : [node.name],
      vars: { ...(options.vars ?? {}), start: preview.start, end: preview.end },
      reason: options.reason,
      backfill: { start: preview.start, end: preview.end, guarded: node.uniqueId },
      commandLine: options.commandLine ?? `mini-dbt backfill ${node.name} --start ${preview.start} --end ${preview.end}`,
      onEvent: options.onEvent,
      writeArtifacts: options.writeArtifacts,
    });
    runs.push(outcome);
    const mine = outcome.results.find((r) => r.uniqueId === node.uniqueId);
    failed = outcome.exitCode !== 0 || mine?.status !== 'success';
    const after = withReadOnly(project, (d) => partitionTotals(d, qualifiedName(node.schema, node.alias), relationColumns(d, node.alias, { schema: node.schema }).map((c) => c.name), part, { start: preview.start, end: preview.end }));
    done.push({
      ...preview,
      partitions: mine?.status === 'success' ? [...mine.partitions] : preview.partitions,
      rows: mine?.status === 'success' ? mine.rowsInserted : preview.rows,
      after: mine?.status === 'success' ? after : null,
      status: mine?.status === 'success' ? 'success' : 'error',
      invocationId: outcome.invocationId,
      message: mine?.status === 'success' ? undefined : (mine?.message ?? undefined),
    });
  }
  const exitCode = runs.reduce((code, r) => Math.max(code, r.exitCode), 0);
  return { ...result, dryRun: false, ranges: done, downstream: downstreamOf(base, node, rebuilt, project), runs, exitCode };
}

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

function downstreamOf(session: Session, node: ModelNode, rebuilt: ReadonlySet<string>, project: Project | null): DownstreamModel[] {
  const out: DownstreamModel[] = [];
  for (const id of descendants(session.graph, node.uniqueId)) {
    const child = session.manifest.nodes.get(id);
    if (child?.resourceType !== 'model') continue;
    const materialized = child.settings.materialized;
    let isStale: boolean | null = null;
    if (project !== null) {
      isStale = materialized === 'view' || materialized === 'ephemeral'
        ? false
        : withReadOnly(project, (db) => (relationKind(db, child.alias, child.schema) === null ? null : exactStale(db, session.manifest, child, { detailPartitions: 0 }).stale.length > 0));
    }
    out.push({ name: child.name, materialized, rebuilt: rebuilt.has(id), stale: isStale });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function withReadOnly<T>(project: Project, fn: (db: Warehouse) => T): T {
  const db = openProjectWarehouse(project, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
