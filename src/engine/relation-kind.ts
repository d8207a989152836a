import type { Warehouse } from './open-warehouse.js';

export type RelationKind = 'table' | 'view';

/** Whether `name` exists in `schema` (default main), and as what. */
export function relationKind(db: Warehouse, name: string, schema = 'main'): RelationKind | null {
  return db.relationKind(name, schema);
}

export interface ColumnInfo {
  readonly name: string;
  readonly type: string;
}

/** Columns of a table or view in declaration order (`temp`: of the connection's temporary schema). */
export function relationColumns(db: Warehouse, name: string, options?: { readonly temp?: boolean; readonly schema?: string }): ColumnInfo[] {
  return db.relationColumns(name, options);
}
