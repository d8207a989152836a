import { Kysely, type Compilable } from 'kysely';
import type { RunResult } from '../engine/connection.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { queryDialect, queryEngineName } from '../engine/query-dialect.js';
import type { LedgerTables } from './ledger-tables.js';

const builders = new Map<string, Kysely<LedgerTables>>();

/** The query builder of the chosen engine (one per engine, made on first use). */
function builder(): Kysely<LedgerTables> {
  const name = queryEngineName();
  let found = builders.get(name);
  if (!found) builders.set(name, (found = new Kysely<LedgerTables>({ dialect: queryDialect() })));
  return found;
}

/**
 * kysely builds the ledger's queries (typed, parameterised, in the engine's
 * dialect); the engine's connection runs them synchronously, so a ledger
 * write can share the publish transaction of the model it records. This is
 * the chosen engine's builder, whichever engine a command chose.
 */
export const ledgerQueries: Kysely<LedgerTables> = new Proxy({} as Kysely<LedgerTables>, {
  get: (_target, key) => {
    const b = builder();
    const value = Reflect.get(b, key, b) as unknown;
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(b) : value;
  },
});

export function runQuery(db: Warehouse, query: Compilable): RunResult {
  const { sql, parameters } = query.compile();
  return db.run(sql, ...(parameters as unknown[]));
}

export function allRows<T>(db: Warehouse, query: Compilable<T>): T[] {
  const { sql, parameters } = query.compile();
  return db.all<T>(sql, ...(parameters as unknown[]));
}
