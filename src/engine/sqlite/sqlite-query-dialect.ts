import { DummyDriver, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Dialect as KyselyDialect } from 'kysely';

/** kysely's SQLite dialect, compiling only: queries are run by the engine's connection (synchronously). */
export const sqliteQueryDialect: KyselyDialect = {
  createAdapter: () => new SqliteAdapter(),
  createDriver: () => new DummyDriver(),
  createIntrospector: (db) => new SqliteIntrospector(db),
  createQueryCompiler: () => new SqliteQueryCompiler(),
};
