import type { Dialect as KyselyDialect } from 'kysely';
import { engine } from './current-engine.js';
import { sqliteQueryDialect } from './sqlite/sqlite-query-dialect.js';
import { postgresQueryDialect } from './postgres/pg-query-dialect.js';

const QUERY_DIALECTS: Readonly<Record<string, KyselyDialect>> = { sqlite: sqliteQueryDialect, postgres: postgresQueryDialect };

/**
 * The query builder's (kysely's) dialect for the chosen engine, compiling
 * only. Kept apart from current-engine.ts so commands that never touch the
 * ledger do not load kysely.
 */
export function queryDialect(): KyselyDialect {
  const found = QUERY_DIALECTS[engine.name];
  if (!found) throw new Error(`no query builder dialect for engine '${engine.name}'`);
  return found;
}

/** The engine's name, for callers that keep one query builder per engine. */
export function queryEngineName(): string {
  return engine.name;
}
