import type { Warehouse } from './open-warehouse.js';
import type { ColumnInfo } from './relation-kind.js';

const PROBE = '__mini_dbt_probe';

/**
 * The columns (names and the types CREATE TABLE AS would give them) of a
 * SELECT, without reading its rows: it is materialized with LIMIT 0 into a
 * temp table (the connection's own schema, so read-only connections can do
 * it too), read back and dropped. Planning uses it to decide on_schema_change
 * before anything runs.
 */
export function describeSelect(db: Warehouse, sql: string): ColumnInfo[] {
  db.exec(`drop table if exists temp."${PROBE}"`);
  db.exec(`create temp table "${PROBE}" as select * from (\n${sql}\n) limit 0`);
  try {
    const rows = db.prepare('select name, type from temp.pragma_table_info(?)').all(PROBE) as { name: string; type: string | null }[];
    return rows.map((r) => ({ name: r.name, type: r.type ?? '' }));
  } finally {
    db.exec(`drop table if exists temp."${PROBE}"`);
  }
}
