import type { Warehouse } from '../engine/open-warehouse.js';
import type { RelationKind } from '../engine/relation-kind.js';
import type { ColumnSpec } from '../materialize/schema-diff.js';

/**
 * What planning reads from the warehouse, and nothing else: whether a
 * relation exists and as what, its columns and indexes, the columns a SELECT
 * yields, and the microbatch batches the ledger records as built.
 * state/warehouse-facts.ts reads them from a warehouse connection.
 */
export interface WarehouseFacts {
  /** The connection templates query through (run_query, statement); read-only for compile. */
  readonly db: Warehouse;
  /** `schema`: where the relation lives (default main). */
  relationKind(alias: string, schema?: string): RelationKind | null;
  columns(alias: string, schema?: string): ColumnSpec[];
  indexes(alias: string, schema?: string): { readonly name: string; readonly columns: readonly string[] }[];
  /** The columns a SELECT yields; undefined when it cannot be described (an upstream is not built yet). */
  selectColumns(sql: string): ColumnSpec[] | undefined;
  builtBatches(model: string): ReadonlySet<string>;
}
