import type { OpenOptions } from '../connection.js';
import type { PostgresSettings } from '../../project/target.js';
import { PostgresConnection } from './pg-connection.js';
import { pgClientConfig, pgConnectionKey } from './pg-client-config.js';
import { PgSyncClient } from './pg-sync-client.js';

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Open a connection to the target's database. The session's search_path is
 * the target's schema (created when missing, unless read-only), then public.
 * A connection this process released for the same target, still idle, is
 * taken first (PgSyncClient.release); one that went away meanwhile (the
 * server restarted, an administrator ended it) is replaced by a new one.
 */
export function openPostgres(path: string, options: OpenOptions, settings: PostgresSettings, schema: string, started?: PgSyncClient): PostgresConnection {
  const key = pgConnectionKey(settings);
  const idle = started ? undefined : PgSyncClient.idle(key);
  if (idle) {
    try {
      // DISCARD ALL (release) reset the role: the session's own statements again, then the settings.
      for (const sql of pgSessionStatements(settings)) idle.send(sql);
      return startSession(idle, path, options, settings, schema, key);
    } catch {
      idle.close();
    }
  }
  const client = started ?? PgSyncClient.acquire();
  try {
    if (!started) client.connect(pgClientConfig(settings), pgSessionStatements(settings));
  } catch (err) {
    client.close();
    throw err;
  }
  return startSession(client, path, options, settings, schema, key);
}

/** The session's settings, posted, and the probe of its schema and server version (one round trip). */
function startSession(client: PgSyncClient, path: string, options: OpenOptions, settings: PostgresSettings, schema: string, key: string): PostgresConnection {
  let serverVersion = 0;
  try {
    const searchPath = settings.searchPath ? `${quoteName(schema)}, ${settings.searchPath}` : `${quoteName(schema)}, public`;
    // Posted without waiting (a search_path may name a schema created just below): answered with the probe's round trip.
    // Dates and timestamps come back as their text (pg-worker-main.ts): ISO (2024-01-05, 2024-01-05 10:00:00)
    // whatever the server's or the database's DateStyle, as psycopg (dbt-postgres) sets it after connecting
    // (a SET, not a startup option, which connection poolers such as older PgBouncers refuse).
    client.send(`set lock_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}; set search_path = ${searchPath}; set datestyle = 'ISO, MDY'`);
    // Only when missing: a user granted CREATE on its schema alone (not on the database) can still build there.
    const probe = client.query("select exists (select 1 from pg_namespace where nspname = $1) as present, current_setting('server_version_num')::int as version", [schema])[0]!.rows[0] as { present: boolean; version: number };
    const present = probe.present;
    serverVersion = Number(probe.version);
    if (!options.readonly && !present) client.query(`create schema if not exists ${quoteName(schema)}`, undefined, { extended: false });
  } catch (err) {
    client.close();
    throw err;
  }
  return new PostgresConnection(path, options.readonly ?? false, client, schema, serverVersion, key);
}

/** What every session runs once connected (the application name is a connection option already). */
export function pgSessionStatements(settings: PostgresSettings): string[] {
  return settings.role ? [`set role ${quoteName(settings.role)}`] : [];
}
