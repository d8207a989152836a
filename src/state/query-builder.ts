import { Kysely, type Compilable } from 'kysely';
import type { RunResult } from '../engine/connection.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { queryDialect } from '../engine/query-dialect.js';
import type { LedgerTables } from './ledger-tables.js';

/**
 * kysely builds the ledger's queries (typed, parameterised, in the engine's
 * dialect); the engine's connection runs them synchronously, so a ledger
 * write can share the publish transaction of the model it records.
 */
export const ledgerQueries = new Kysely<LedgerTables>({ dialect: queryDialect });

export function runQuery(db: Warehouse, query: Compilable): RunResult {
  const { sql, parameters } = query.compile();
  return db.run(sql, ...(parameters as unknown[]));
}

export function allRows<T>(db: Warehouse, query: Compilable<T>): T[] {
  const { sql, parameters } = query.compile();
  return db.all<T>(sql, ...(parameters as unknown[]));
}
