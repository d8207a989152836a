import type { Warehouse } from './open-warehouse.js';

/** Whether some index of the table has this column first (so a range on it is a seek, not a scan). */
export function columnLeadsIndex(db: Warehouse, table: string, column: string): boolean {
  const indexes = db.prepare('select name from pragma_index_list(?)').pluck().all(table) as string[];
  return indexes.some((index) => {
    // An expression index has no column name (NULL).
    const first = db.prepare('select name from pragma_index_info(?) where seqno = 0').pluck().get(index) as string | null | undefined;
    return typeof first === 'string' && first.toLowerCase() === column.toLowerCase();
  });
}
