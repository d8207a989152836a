import {
  DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable,
} from 'kysely';
import type { Warehouse } from '../db/open-warehouse.js';
import type { LedgerTables } from './ledger-tables.js';

/**
 * kysely builds the ledger's queries (typed, parameterised); better-sqlite3
 * runs them synchronously, so a ledger write can share the publish
 * transaction of the model it records.
 */
export const ledgerQueries = new Kysely<LedgerTables>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

export function runQuery(db: Warehouse, query: Compilable): { changes: number; lastInsertRowid: number } {
  const { sql, parameters } = query.compile();
  const info = db.prepare(sql).run(...(parameters as unknown[]));
  return { changes: info.changes, lastInsertRowid: Number(info.lastInsertRowid) };
}

export function allRows<T>(db: Warehouse, query: Compilable<T>): T[] {
  const { sql, parameters } = query.compile();
  return db.prepare(sql).all(...(parameters as unknown[])) as T[];
}
