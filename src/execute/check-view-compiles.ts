import type { Warehouse } from '../engine/open-warehouse.js';

/**
 * SQLite creates a view without resolving its columns and tables, so a view
 * whose SELECT names a missing column would be "built" and fail only when
 * read. A warehouse (and so dbt) refuses it at create time: compiling a read
 * of the new view inside the publish transaction does the same here, with
 * the database's own message (`no such column: x`), and nothing is read.
 */
export function checkViewCompiles(db: Warehouse, relation: string): void {
  db.prepare(`select * from ${relation} limit 0`);
}
