import { dialect } from './current-engine.js';
import type { Warehouse } from './open-warehouse.js';
import type { ColumnInfo } from './relation-kind.js';
import { scratchTableName } from '../project/reserved-names.js';

const PROBE = scratchTableName('', 'probe');

/**
 * The columns (names and the types CREATE TABLE AS would give them) of a
 * SELECT, without reading its rows: it is materialized with LIMIT 0 into a
 * temp table (the connection's own schema, so read-only connections can do
 * it too), read back and dropped. Planning uses it to decide on_schema_change
 * before anything runs. An engine that can ask its server for a statement's
 * result columns (Connection.describeSelect) answers without the temp table.
 */
export function describeSelect(db: Warehouse, sql: string): ColumnInfo[] {
  if (db.describeSelect) return db.describeSelect(sql);
  const probe = dialect.tempRelation(PROBE);
  db.exec(dialect.dropRelation('table', probe, { ifExists: true }));
  // prepare() refuses a text holding a second statement: only the model's one SELECT can run here.
  db.prepare(dialect.createTableAs(probe, `select * from (\n${sql}\n) as mini_dbt_probe limit 0`)).run();
  try {
    return db.relationColumns(PROBE, { temp: true });
  } finally {
    db.exec(dialect.dropRelation('table', probe, { ifExists: true }));
  }
}
