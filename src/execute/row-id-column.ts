import type { Warehouse } from '../engine/open-warehouse.js';

/**
 * The column naming what a raw row is a version of (order_id): the first
 * column called `id` or ending in `_id`, other than the time columns. Null
 * when the table has none. Raw feeds keep one row per version, so no yml key
 * says it; this is the convention their ids follow.
 */
export function rowIdColumn(db: Warehouse, table: string, schema: string, exclude: readonly string[] = []): string | null {
  const skip = new Set(exclude.map((c) => c.toLowerCase()));
  const columns = db.relationColumns(table, { schema }).map((c) => c.name).filter((c) => !skip.has(c.toLowerCase()));
  return columns.find((c) => /(^|_)id$/i.test(c)) ?? null;
}

/** How an id column's values are named in a sentence: order_id -> orders, id -> ids. */
export function idNoun(column: string | null, count: number): string {
  const stem = column === null ? 'row' : column.replace(/_?id$/i, '') || 'id';
  return count === 1 ? stem : `${stem}s`;
}
