import type { Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import { diffPartitions, type TableDiff } from './diff-partitions.js';
import { partitionTotals, type Totals } from './range-totals.js';
import { withScratchTable } from './scratch-table.js';
import { scratchTableName } from '../project/reserved-names.js';

export interface ExactStale extends TableDiff {
  readonly partitionColumn?: string;
  /** Totals of the stale partitions: the live table and the rebuild. */
  readonly totals: { readonly live: Totals; readonly rebuilt: Totals };
}

/** The scratch table a full rebuild is written to (temp schema: never the live table). */
export function rebuiltTableName(alias: string): string {
  return scratchTableName(alias, 'rebuilt');
}

/**
 * Exact staleness: build the model's full refresh (as of the manifest's vars)
 * into a temp table of this connection, diff it against the live table
 * partition by partition, and drop it. The live table is only read; the
 * connection may be read-only (SQLite allows temp tables there).
 */
export function exactStale(db: Warehouse, manifest: Manifest, node: ModelNode, options: { detailPartitions?: number } = {}): ExactStale {
  const kind = relationKind(db, node.alias, node.schema);
  if (kind === null) {
    throw new ProjectError(`model '${node.name}' is not in the warehouse yet, so nothing in it can be stale`, { hint: `build it first: mini-dbt run --select ${node.name}` });
  }
  const { sql } = renderModel(manifest, node, { db, incremental: false });
  const scratch = rebuiltTableName(node.alias);
  const failed = (message: string) => new ProjectError(`the full rebuild of '${node.name}' failed: ${message}`, { location: { file: node.file.path } });
  return withScratchTable(db, scratch, sql, failed, (scratchRef) => {
    const rebuiltColumns = relationColumns(db, scratch, { temp: true }).map((c) => c.name);
    const liveColumns = relationColumns(db, node.alias, { schema: node.schema }).map((c) => c.name);
    if (!rebuiltColumns.some((c) => liveColumns.includes(c))) {
      throw new ProjectError(`the live '${node.alias}' and the model '${node.name}' share no column (live: ${liveColumns.join(', ')}; model: ${rebuiltColumns.join(', ')})`, {
        hint: `rebuild it: mini-dbt run --select ${node.name} --full-refresh`,
      });
    }
    const part = node.settings.partitionColumn;
    const diff = diffPartitions(
      db,
      { relation: qualifiedName(node.schema, node.alias), columns: liveColumns },
      { relation: scratchRef, columns: rebuiltColumns },
      part,
      { detailPartitions: options.detailPartitions },
    );
    const filter = part ? { partitions: diff.stale } : undefined;
    const totals = {
      live: partitionTotals(db, qualifiedName(node.schema, node.alias), diff.columns, part, filter),
      rebuilt: partitionTotals(db, scratchRef, diff.columns, part, filter),
    };
    return { ...diff, partitionColumn: part, totals };
  });
}
