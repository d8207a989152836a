import type { Warehouse } from './open-warehouse.js';

/** SQLite's affinity rule for TEXT: a declared type containing CHAR, CLOB or TEXT (and not INT). */
export function hasTextAffinity(db: Warehouse, table: string, column: string): boolean {
  const type = db.prepare('select type from pragma_table_info(?) where lower(name) = lower(?)').pluck().get(table, column) as string | undefined;
  return type !== undefined && /CHAR|CLOB|TEXT/i.test(type) && !/INT/i.test(type);
}
