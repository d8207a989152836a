import type { Engine } from '../engine.js';
import type { PostgresSettings } from '../../project/target.js';
import { openPostgres, pgSessionStatements } from './open-postgres.js';
import { pgClientConfig, pgConnectionKey } from './pg-client-config.js';
import { postgresDialect, postgresMerge } from './pg-dialect.js';
import { PgError, PgSyncClient } from './pg-sync-client.js';
import { locatorInSchema, schemaOfLocator } from './pg-schema-locator.js';
import { pgRelationLocks } from './pg-relation-locks.js';
import { explainPgError, explainPgOpenError } from './pg-open-error.js';

/**
 * The PostgreSQL engine for one target: `open` connects with the target's
 * settings (the `path` is only its locator, for messages) and works in
 * `schema`, the target's, as SQLite works in main.
 */
export function postgresEngine(settings: PostgresSettings, schema: string, options: { readonly prewarm?: boolean } = {}): Engine {
  // A command that will open the warehouse starts connecting now, while it parses the project:
  // loading the driver on its thread, the TCP connect and the password exchange overlap that work.
  let started: PgSyncClient | undefined;
  if (options.prewarm && !PgSyncClient.hasIdle(pgConnectionKey(settings))) {
    try {
      started = PgSyncClient.acquire();
      started.startConnect(pgClientConfig(settings), pgSessionStatements(settings));
    } catch {
      started = undefined;
    }
  }
  // MERGE came with PostgreSQL 15: the server a connection reached decides how a merge is written.
  let serverVersion: number | undefined;
  return {
    name: 'postgres',
    dialect: { ...postgresDialect, merge: (merge) => postgresMerge(merge, serverVersion === undefined || serverVersion >= 150000) },
    open: (path, openOptions) => {
      const client = started;
      started = undefined;
      const connection = openPostgres(path, openOptions, settings, schemaOfLocator(path) ?? schema, client);
      serverVersion = connection.serverVersion;
      return connection;
    },
    inSchema: locatorInSchema,
    // lock_timeout ran out (55P03), or a deadlock was broken by failing this session (40P01).
    isBusyError: (err) => err instanceof PgError && (err.code === '55P03' || err.code === '40P01'),
    // cardinality_violation: "MERGE command cannot affect row a second time".
    isDoubleMatchError: (err) => err instanceof PgError && err.code === '21000',
    isInMemory: () => true,
    explainOpenError: (err) => explainPgOpenError(err, settings),
    relationLocks: pgRelationLocks,
    explainError: (err) => explainPgError(err, settings),
  };
}
