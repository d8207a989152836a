import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { ProjectError } from '../errors/project-error.js';
import { runStatements } from '../execute/run-statements.js';
import type { Graph } from '../graph/graph-node.js';
import { rangeGuardCheckNames } from '../materialize/range-guard.js';
import { newRowsName } from '../materialize/staging-names.js';
import type { PlannedStatement } from '../materialize/planned-statement.js';
import { PARSE_CONTEXT, type BackfillRange, type RunContext } from '../invocation/run-context.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { relationColumns } from '../engine/relation-kind.js';
import { guardedRanges } from '../materialize/range-guard.js';
import { predictedChanges, type PredictedChanges } from './predicted-changes.js';
import type { NodePlan } from '../plan/node-plan.js';
import { planNode } from '../plan/plan-node.js';
import { warehouseFacts } from '../state/warehouse-facts.js';
import type { PartitionRange } from './minimal-ranges.js';
import { rawReadCounts, type RawReadCounts } from './raw-read-counts.js';
import { withScratchTable } from './scratch-table.js';

export interface BackfillPreview extends RawReadCounts {
  readonly start: string;
  readonly end: string;
  /** The partitions the backfill run would write (its SELECT run read-only now). */
  readonly partitions: string[];
  /** Rows the backfill would write. */
  readonly rows: number;
  /** The checks made on the rows before anything is written (unique_key not null and unique, partitions in the range). */
  readonly checks: readonly string[];
  /** What the backfill would change: its staged rows against the live partitions of its ranges. */
  readonly changes?: PredictedChanges;
  /** Rows staged per partition. */
  readonly rowsPerPartition?: Readonly<Record<string, number>>;
  /** The data tests the publish runs as audits (write-audit-publish), by name. */
  readonly audits?: readonly string[];
}

/** The checks a backfill of this range makes, as the report lists them. */
export function backfillChecks(node: ModelNode, range: PartitionRange | BackfillRange): string[] {
  return rangeGuardCheckNames(node.settings.uniqueKeyColumns, requirePartition(node), range);
}

/**
 * What a backfill of one range (or of several in one publish) would write,
 * computed read-only: plan the model's backfill exactly as the run would
 * (the manifest carries the start/end vars its template reads; several
 * ranges are rendered once each), stage its SELECT in a temp table of this
 * connection under the plan's own staging name, run there the plan's checks
 * on the staged rows (unique_key not null and unique, every partition in the
 * ranges: a ProjectError otherwise), diff the staged rows against the live
 * partitions of the ranges, and count the raw rows it reads. Nothing else of
 * the plan runs.
 */
export function previewBackfill(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, range: BackfillRange, asOf: string | null): BackfillPreview {
  const part = requirePartition(node);
  const context: RunContext = { ...PARSE_CONTEXT, vars: manifest.vars, backfill: { ...range, guarded: node.uniqueId } };
  const plan = planNode({ facts: warehouseFacts(db), manifest, node, context });
  const failed = (message: string) => new ProjectError(`the backfill query of '${node.name}' failed: ${message}`, { location: { file: node.file.path } });
  const name = newRowsName(node.alias);
  const ranges = guardedRanges(range);
  const { partitions, rows, changes, rowsPerPartition } = withScratchTable(db, name, plan.sql, failed, (staged) => {
    runStatements(db, { name: node.name, relation: staged, mode: 'backfill', statements: stagedRowChecks(plan) });
    const live = { relation: qualifiedName(node.schema, node.alias), columns: relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name) };
    const counted = db.prepare(`select cast(${quoteIdentifier(part)} as text) as p, count(*) as n from ${staged} group by 1 order by 1`).all() as { p: string | null; n: number }[];
    return {
      partitions: counted.flatMap((c) => (c.p === null ? [] : [c.p])),
      rowsPerPartition: Object.fromEntries(counted.flatMap((c) => (c.p === null ? [] : [[c.p, Number(c.n)]]))),
      rows: counted.reduce((n, c) => n + Number(c.n), 0),
      changes: predictedChanges(db, live, { relation: staged, columns: relationColumns(db, name, { temp: true }).map((c) => c.name) }, part, ranges),
    };
  });
  const raw = ranges.map((r) => rawReadCounts(db, manifest, graph, node, r, asOf));
  const counts = { rawRows: raw.reduce((n, r) => n + r.rawRows, 0), fullReloadRawRows: raw[0]?.fullReloadRawRows ?? 0 };
  return { start: range.start, end: range.end, partitions, rows, rowsPerPartition, ...counts, checks: backfillChecks(node, range), changes, audits: plannedAudits(plan) };
}

/** The names of the audits a plan runs inside its publish. */
export function plannedAudits(plan: NodePlan | undefined): string[] {
  return (plan?.statements ?? []).flatMap((s) => (s.kind === 'audit' ? [s.test] : []));
}

/** The plan's checks on its staged rows: the statements right after the stage step that only read them. */
function stagedRowChecks(plan: NodePlan): PlannedStatement[] {
  const stage = plan.statements.findIndex((s) => s.kind === 'exec' && s.role === 'stage');
  if (plan.mode !== 'backfill' || stage < 0) throw new ProjectError(`model '${plan.name}' is not backfilled by an incremental run now (${plan.reason})`);
  const after = plan.statements.slice(stage + 1);
  const end = after.findIndex((s) => s.kind !== 'assert-none' && s.kind !== 'require-columns' && s.kind !== 'warn-count');
  return after.slice(0, end < 0 ? after.length : end).filter((s) => s.kind !== 'warn-count');
}

function requirePartition(node: ModelNode): string {
  const part = node.settings.partitionColumn;
  if (!part) throw new ProjectError(`model '${node.name}' declares no partition_by, so there is no range to backfill`, { hint: `declare it: {{ config(partition_by='order_date') }}, or rebuild it: mini-dbt run --select ${node.name}` });
  return part;
}
