import type { Warehouse } from './open-warehouse.js';

export type RelationKind = 'table' | 'view';

/** Whether `name` exists in the main schema, and as what. */
export function relationKind(db: Warehouse, name: string): RelationKind | null {
  const row = db
    .prepare("select type from main.sqlite_master where name = ? and type in ('table', 'view')")
    .get(name) as { type: RelationKind } | undefined;
  return row ? row.type : null;
}

export interface ColumnInfo {
  readonly name: string;
  readonly type: string;
}

/** Columns of a table or view in declaration order. */
export function relationColumns(db: Warehouse, name: string): ColumnInfo[] {
  const rows = db.prepare('select name, type from pragma_table_info(?)').all(name) as { name: string; type: string }[];
  return rows.map((r) => ({ name: r.name, type: r.type || '' }));
}
