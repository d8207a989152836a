import type { Warehouse } from './open-warehouse.js';

/** Whether some index of the table (constraints' too) has this column first (so a range on it is a seek, not a scan). */
export function columnLeadsIndex(db: Warehouse, table: string, column: string, schema = 'main'): boolean {
  // An expression index has no column name ('').
  const lower = column.toLowerCase();
  return db.relationIndexes(table, { withConstraints: true, schema }).some((index) => (index.columns[0] ?? '').toLowerCase() === lower && index.columns[0] !== '');
}
