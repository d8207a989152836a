import { DummyDriver, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Dialect as KyselyDialect } from 'kysely';

/** kysely's PostgreSQL dialect, compiling only: queries are run by the engine's connection. */
export const postgresQueryDialect: KyselyDialect = {
  createAdapter: () => new PostgresAdapter(),
  createDriver: () => new DummyDriver(),
  createIntrospector: (db) => new PostgresIntrospector(db),
  createQueryCompiler: () => new PostgresQueryCompiler(),
};
