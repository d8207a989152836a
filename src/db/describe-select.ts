import type { Warehouse } from './open-warehouse.js';
import type { ColumnInfo } from './relation-kind.js';
import { scratchTableName } from '../project/reserved-names.js';

const PROBE = scratchTableName('', 'probe');

/**
 * The columns (names and the types CREATE TABLE AS would give them) of a
 * SELECT, without reading its rows: it is materialized with LIMIT 0 into a
 * temp table (the connection's own schema, so read-only connections can do
 * it too), read back and dropped. Planning uses it to decide on_schema_change
 * before anything runs.
 */
export function describeSelect(db: Warehouse, sql: string): ColumnInfo[] {
  db.exec(`drop table if exists temp."${PROBE}"`);
  // prepare() refuses a text holding a second statement: only the model's one SELECT can run here.
  db.prepare(`create temp table "${PROBE}" as select * from (\n${sql}\n) limit 0`).run();
  try {
    const rows = db.prepare('select name, type from temp.pragma_table_info(?)').all(PROBE) as { name: string; type: string | null }[];
    return rows.map((r) => ({ name: r.name, type: r.type ?? '' }));
  } finally {
    db.exec(`drop table if exists temp."${PROBE}"`);
  }
}
