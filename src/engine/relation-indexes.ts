import type { Warehouse } from './open-warehouse.js';

export interface IndexInfo {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/** The named indexes of a table (not the automatic ones behind UNIQUE / PRIMARY KEY constraints). */
export function relationIndexes(db: Warehouse, table: string, schema = 'main'): IndexInfo[] {
  return db.relationIndexes(table, { schema });
}
