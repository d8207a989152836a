import type { Warehouse } from './open-warehouse.js';

export interface IndexInfo {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/** The named indexes of a table (not the automatic ones behind UNIQUE / PRIMARY KEY constraints). */
export function relationIndexes(db: Warehouse, table: string): IndexInfo[] {
  const list = db.prepare("select name, \"unique\" as u from pragma_index_list(?) where origin = 'c'").all(table) as { name: string; u: number }[];
  return list.map((i) => ({
    name: i.name,
    unique: i.u === 1,
    columns: (db.prepare('select name from pragma_index_info(?) order by seqno').all(i.name) as { name: string | null }[]).map((c) => c.name ?? ''),
  }));
}
