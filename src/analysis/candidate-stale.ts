import type { Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import type { RelationKind } from '../engine/relation-kind.js';
import { replacesRows } from '../materialize/incremental/strategy-registry.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationColumns } from '../engine/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import { isIsoDate } from '../feed/iso-date.js';
import type { Graph } from '../graph/graph-node.js';
import { definitionHash } from '../plan/definition-hash.js';
import { renderBackfillRanges } from '../plan/render-backfill-ranges.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { diffPartitions } from './diff-partitions.js';
import type { ExactStale } from './exact-stale.js';
import { fastStale } from './fast-stale.js';
import { seekedLatePartitions } from './seeked-late-partitions.js';
import { candidatesSinceFullBuild } from './candidates-since-full-build.js';
import { minimalRanges } from './minimal-ranges.js';
import { partitionTotals } from './range-totals.js';
import { withScratchTable } from './scratch-table.js';
import { scratchTableName } from '../project/reserved-names.js';

/** Above this share of the partitions, rebuilding them all costs about as much: the full rebuild is used. */
const MOST = 0.5;

/**
 * The exact `stale` at the cost of the partitions that may differ: a
 * partition is rebuilt and compared only when the ledger cannot vouch for
 * it. It vouches for a partition last written under the model's current
 * definition (definitionHash: its SQL, config, upstream, macros and vars)
 * with no raw row for it landed since (the fast mode's check); every other
 * partition (late rows, a changed definition, written before the ledger kept
 * definitions, in the table but not in the ledger, never written) is a
 * candidate. The candidates are rendered as a backfill of their ranges
 * (is_incremental() with start and end, as `backfill` runs them), built in a
 * scratch table and compared with the live ones. Undefined when this cannot
 * stand for the full comparison, and the full rebuild is needed: a model
 * that is not incremental with partition_by, whose strategy does not replace
 * the partitions it writes, whose incremental SQL ignores start and end, or
 * that has no loaded_at upstream; no ledger of it; partitions that are not days;
 * candidates that are most of the table; or a render that writes days outside
 * its ranges. What it takes on trust (why it is opt-in: `stale --candidates`):
 * that an incremental run computes, for the partitions it writes, what the
 * full refresh computes (the very thing the full comparison checks, and the
 * traps break); as the fast mode does, that raw rows are only appended (an
 * edit in place is not seen), that only the tool writes the live table, and
 * that a partition's rows come from the raw rows of its own day
 * (partition_by with event_time).
 */
export function candidateStale(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, asOf: string | null, options: { detailPartitions?: number } = {}): (ExactStale & { candidates: number }) | undefined {
  const plan = candidatePlan(db, manifest, graph, node, asOf);
  return plan === undefined ? undefined : compareCandidates(db, manifest, node, plan, options);
}

/** The partitions candidateStale rebuilds, and what it needs to rebuild them. */
export interface CandidatePlan {
  /** Sorted; every one a day. */
  readonly candidates: readonly string[];
  /** The partitions in the live table or among the candidates (what the check covers). */
  readonly partitionsChecked: number;
  readonly existing: RelationKind | null;
}

/** candidateStale's first half: the partitions the ledger cannot vouch for (undefined: only the full rebuild can say). */
export function candidatePlan(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, asOf: string | null): CandidatePlan | undefined {
  const part = node.settings.partitionColumn;
  if (!part || asOf === null || node.settings.materialized !== 'incremental') return undefined;
  if (!replacesRows(node.settings.strategy, node.settings.uniqueKeyColumns)) return undefined;
  const existing = db.relationKind(node.alias, node.schema);
  if (!honoursRanges(db, manifest, node, existing)) return undefined;
  if (timeSourcesOf(manifest, graph, node.uniqueId).length === 0) return undefined;
  if (!relationColumns(db, '_mini_dbt_node_runs').some((c) => c.name === 'definition_hash')) return undefined;
  const current = definitionHash(manifest, graph, node, db);
  if (current === null) return undefined;
  const sinceFullBuild = candidatesSinceFullBuild(db, manifest, graph, node, asOf, current);
  if (sinceFullBuild !== undefined) {
    const inTable = livePartitions(db, node);
    if (inTable === undefined) return undefined;
    const all = new Set([...inTable, ...sinceFullBuild]);
    return rebuildable(sinceFullBuild, all.size) ? { candidates: sinceFullBuild, partitionsChecked: all.size, existing } : undefined;
  }
  let late: string[];
  try {
    late = seekedLatePartitions(db, manifest, graph, node, asOf) ?? fastStale(db, manifest, graph, node, asOf).stale;
  } catch (err) {
    if (err instanceof ProjectError) return undefined;
    throw err;
  }
  const written = db.prepare(`
    select p.partition as partition, n.definition_hash as definition_hash
    from _mini_dbt_partitions p
    join (select partition, max(node_run_id) as id from _mini_dbt_partitions where model = ? group by partition) l
      on l.partition = p.partition and l.id = p.node_run_id
    join _mini_dbt_node_runs n on n.id = p.node_run_id
    where p.model = ?`).all(node.name, node.name) as { partition: unknown; definition_hash: string | null }[];
  const vouched = new Set(written.filter((w) => w.definition_hash === current).map((w) => String(w.partition)));
  const inTable = livePartitions(db, node);
  // A row with no partition is compared by the full rebuild only.
  if (inTable === undefined) return undefined;
  const candidates = [...new Set([...late, ...inTable.filter((p) => !vouched.has(p)), ...written.map((w) => String(w.partition)).filter((p) => !vouched.has(p))])].sort();
  const all = new Set([...inTable, ...candidates]);
  if (!rebuildable(candidates, all.size)) return undefined;
  return { candidates, partitionsChecked: all.size, existing };
}

/** The distinct partitions of the live table, as text; undefined when a row has none. */
export function livePartitions(db: Warehouse, node: ModelNode): string[] | undefined {
  const liveKey = `cast(${quoteIdentifier(node.settings.partitionColumn!)} as text)`;
  const keys = db.values(`select distinct ${liveKey} from ${qualifiedName(node.schema, node.alias)} as live`) as unknown[];
  return keys.some((v) => v === null) ? undefined : keys.map(String);
}

/** Whether rebuilding these candidates can stand for the full rebuild: all days, and not most of the `all` partitions. */
export function rebuildable(candidates: readonly string[], all: number): boolean {
  return !candidates.some((p) => !isIsoDate(p)) && candidates.length <= MOST * Math.max(all, 1);
}

/**
 * candidateStale's second half: the candidates rebuilt as a backfill of
 * their ranges, in a scratch table, compared with the live ones. With
 * `totals: false` (a caller that wants only the stale list) the totals are
 * not read and are left at zero.
 */
export function compareCandidates(db: Warehouse, manifest: Manifest, node: ModelNode, plan: CandidatePlan, options: { detailPartitions?: number; totals?: boolean } = {}): (ExactStale & { candidates: number }) | undefined {
  const part = node.settings.partitionColumn!;
  const { candidates, existing } = plan;
  const live = qualifiedName(node.schema, node.alias);
  const liveKey = `cast(${quoteIdentifier(part)} as text)`;
  const none = { rows: 0, sums: {} };
  if (candidates.length === 0) {
    const columns = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
    return { columns, onlyLive: [], onlyRebuilt: [], partitionsChecked: plan.partitionsChecked, stale: [], details: [], partitionColumn: part, totals: { live: none, rebuilt: none }, candidates: 0 };
  }
  const listed = `(${candidates.map((p) => dialect.quoteLiteral(p)).join(', ')})`;
  const { sql } = renderBackfillRanges(manifest, node, minimalRanges(candidates), { db, incremental: true, existing });
  const failed = (message: string) => new ProjectError(`the rebuild of the ${candidates.length} candidate partition(s) of '${node.name}' failed: ${message}`, { location: { file: node.file.path } });
  return withScratchTable(db, scratchTableName(node.alias, 'rebuilt'), sql, failed, (scratch) => {
    const rebuiltColumns = relationColumns(db, scratchTableName(node.alias, 'rebuilt'), { temp: true }).map((c) => c.name);
    const liveColumns = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
    if (!rebuiltColumns.includes(part) || !liveColumns.includes(part)) return undefined;
    // A render that writes a day outside its ranges does not honour start and end: only the full rebuild can say.
    if (Number(db.value(`select count(*) from ${scratch} as rebuilt where ${liveKey} is null or ${liveKey} not in ${listed}`)) > 0) return undefined;
    const only = (relation: string) => `(select * from ${relation} as whole where ${liveKey} in ${listed})`;
    const diff = diffPartitions(db, { relation: only(live), columns: liveColumns }, { relation: scratch, columns: rebuiltColumns }, part, { detailPartitions: options.detailPartitions, countPartitions: false });
    const filter = { partitions: diff.stale };
    const totals = options.totals === false ? { live: none, rebuilt: none } : {
      live: partitionTotals(db, live, diff.columns, part, filter),
      rebuilt: partitionTotals(db, scratch, diff.columns, part, filter),
    };
    return { ...diff, partitionsChecked: plan.partitionsChecked, partitionColumn: part, totals, candidates: candidates.length };
  });
}

/** Whether the model's incremental SQL follows its start and end vars (two ranges, two texts): a backfill of a range then rewrites that range. */
function honoursRanges(db: Warehouse, manifest: Manifest, node: ModelNode, existing: RelationKind | null): boolean {
  const render = (day: string) => renderModel({ ...manifest, vars: { ...manifest.vars, start: day, end: day } }, node, { db, incremental: true, existing }).sql;
  try {
    return render('2000-01-01') !== render('2000-01-02');
  } catch {
    return false;
  }
}
