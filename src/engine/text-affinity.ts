import { dialect } from './current-engine.js';
import type { Warehouse } from './open-warehouse.js';

/** Whether a column of the table is declared with a type that compares as text (SQLite: TEXT affinity). */
export function hasTextAffinity(db: Warehouse, table: string, column: string, schema = 'main'): boolean {
  const lower = column.toLowerCase();
  const type = db.relationColumns(table, { schema }).find((c) => c.name.toLowerCase() === lower)?.type;
  return type !== undefined && dialect.typeAffinity(type) === 'TEXT';
}
