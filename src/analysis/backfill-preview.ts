import type { Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import type { Warehouse } from '../db/open-warehouse.js';
import { quoteIdentifier } from '../db/quote-identifier.js';
import { uniqueKeyColumns } from '../config/model-config.js';
import { ProjectError } from '../errors/project-error.js';
import { runStatements } from '../execute/run-statements.js';
import type { Graph } from '../graph/graph-node.js';
import { keyChecks } from '../materialize/incremental.js';
import { rangeGuard, rangeGuardCheckNames } from '../materialize/range-guard.js';
import { partitionColumn } from '../plan/plan-model.js';
import type { PartitionRange } from './minimal-ranges.js';
import { rawReadCounts, type RawReadCounts } from './raw-read-counts.js';
import { withScratchTable } from './scratch-table.js';
import { scratchTableName } from '../project/reserved-names.js';

export interface BackfillPreview extends RawReadCounts {
  readonly start: string;
  readonly end: string;
  /** The partitions the backfill run would write (its SELECT run read-only now). */
  readonly partitions: string[];
  /** Rows the backfill would write. */
  readonly rows: number;
  /** The checks made on the rows before anything is written (unique_key not null and unique, partitions in the range). */
  readonly checks: readonly string[];
}

/** The checks a backfill of this range makes, as the report lists them. */
export function backfillChecks(node: ModelNode, range: PartitionRange): string[] {
  return rangeGuardCheckNames(uniqueKeyColumns(node.config), requirePartition(node), range);
}

/**
 * What a backfill of one range would write, computed read-only: render the
 * model's incremental branch with start/end vars (manifest must carry them),
 * stage that SELECT in a temp table of this connection, run on it the very
 * checks the publish runs (unique_key not null and unique, every partition
 * in the range: a ProjectError otherwise), and count the raw rows it reads.
 */
export function previewBackfill(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, range: PartitionRange, asOf: string | null): BackfillPreview {
  const part = requirePartition(node);
  const { sql } = renderModel(manifest, node, { db, forceIncremental: true });
  const failed = (message: string) => new ProjectError(`the backfill query of '${node.name}' failed: ${message}`, { location: { file: node.file.path } });
  const { partitions, rows } = withScratchTable(db, scratchTableName(node.alias, 'preview'), sql, failed, (staged) => {
    const checks = [...keyChecks(node.name, staged, node.config, { unique: true, refuseNulls: true }), rangeGuard(node.name, staged, part, range)];
    runStatements(db, { name: node.name, relation: staged, mode: 'backfill', statements: checks });
    return {
      partitions: db.prepare(`select distinct cast(${quoteIdentifier(part)} as text) from ${staged} order by 1`).pluck().all() as string[],
      rows: Number(db.prepare(`select count(*) from ${staged}`).pluck().get()),
    };
  });
  return { start: range.start, end: range.end, partitions, rows, ...rawReadCounts(db, manifest, graph, node, range, asOf), checks: backfillChecks(node, range) };
}

function requirePartition(node: ModelNode): string {
  const part = partitionColumn(node);
  if (!part) throw new ProjectError(`model '${node.name}' declares no partition_by, so there is no range to backfill`, { hint: `declare it: {{ config(partition_by='order_date') }}, or rebuild it: mini-dbt run --select ${node.name}` });
  return part;
}
