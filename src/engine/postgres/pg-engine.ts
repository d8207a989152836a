import type { Engine } from '../engine.js';
import type { PostgresSettings } from '../../project/target.js';
import { openPostgres } from './pg-connection.js';
import { postgresDialect } from './pg-dialect.js';
import { PgError } from './pg-sync-client.js';
import { locatorInSchema, schemaOfLocator } from './pg-schema-locator.js';
import { pgRelationLocks } from './pg-relation-locks.js';
import { explainPgError, explainPgOpenError } from './pg-open-error.js';

/**
 * The PostgreSQL engine for one target: `open` connects with the target's
 * settings (the `path` is only its locator, for messages) and works in
 * `schema`, the target's, as SQLite works in main.
 */
export function postgresEngine(settings: PostgresSettings, schema: string): Engine {
  return {
    name: 'postgres',
    dialect: postgresDialect,
    open: (path, options) => openPostgres(path, options, settings, schemaOfLocator(path) ?? schema),
    inSchema: locatorInSchema,
    // lock_timeout ran out (55P03), or a deadlock was broken by failing this session (40P01).
    isBusyError: (err) => err instanceof PgError && (err.code === '55P03' || err.code === '40P01'),
    isInMemory: () => true,
    explainOpenError: (err) => explainPgOpenError(err, settings),
    relationLocks: pgRelationLocks,
    explainError: (err) => explainPgError(err, settings),
  };
}
