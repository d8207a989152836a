import type { Dialect as KyselyDialect } from 'kysely';
import { engine } from './current-engine.js';
import { sqliteQueryDialect } from './sqlite/sqlite-query-dialect.js';

const QUERY_DIALECTS: Readonly<Record<string, KyselyDialect>> = { sqlite: sqliteQueryDialect };

/**
 * The query builder's (kysely's) dialect for the chosen engine, compiling
 * only. Kept apart from current-engine.ts so commands that never touch the
 * ledger do not load kysely.
 */
export const queryDialect: KyselyDialect = QUERY_DIALECTS[engine.name] ?? (() => {
  throw new Error(`no query builder dialect for engine '${engine.name}'`);
})();
