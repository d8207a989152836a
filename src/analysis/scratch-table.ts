import type { Warehouse } from '../db/open-warehouse.js';
import { quoteIdentifier } from '../db/quote-identifier.js';

/**
 * Run a model's SELECT into a temp table of this connection (allowed on a
 * read-only one), hand `use` its qualified name, and drop it whatever
 * happens. A failing SELECT becomes `failed(message)`.
 */
export function withScratchTable<T>(db: Warehouse, name: string, sql: string, failed: (message: string) => Error, use: (relation: string) => T): T {
  const relation = `temp.${quoteIdentifier(name)}`;
  db.exec(`drop table if exists ${relation}`);
  try {
    try {
      // prepare() refuses a text holding a second statement: only the model's one SELECT can run here.
      db.prepare(`create temp table ${quoteIdentifier(name)} as\n${sql}`).run();
    } catch (err) {
      throw failed(err instanceof Error ? err.message : String(err));
    }
    return use(relation);
  } finally {
    db.exec(`drop table if exists ${relation}`);
  }
}
