import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';

/**
 * Run a model's SELECT into a temp table of this connection (allowed on a
 * read-only one), hand `use` its qualified name, and drop it whatever
 * happens. A failing SELECT becomes `failed(message)`.
 */
export function withScratchTable<T>(db: Warehouse, name: string, sql: string, failed: (message: string) => Error, use: (relation: string) => T): T {
  const relation = dialect.tempRelation(name);
  db.exec(dialect.dropRelation('table', relation, { ifExists: true }));
  try {
    try {
      // prepare() refuses a text holding a second statement: only the model's one SELECT can run here, and
      // never one writing the tool's own tables (PostgreSQL's data-modifying WITH; E230).
      refuseReservedWrites(sql, 'the model\'s SQL');
      db.prepare(dialect.createTableAs(quoteIdentifier(name), sql, { temp: true })).run();
    } catch (err) {
      throw failed(err instanceof Error ? err.message : String(err));
    }
    return use(relation);
  } finally {
    db.exec(dialect.dropRelation('table', relation, { ifExists: true }));
  }
}
