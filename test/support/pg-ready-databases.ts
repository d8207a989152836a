import pg from 'pg';
import type { PgServer } from './pg-cluster.js';

/**
 * Empty databases made ahead, so a test's fresh database is a rename (under
 * a millisecond) instead of a CREATE DATABASE ... TEMPLATE template0 while it
 * waits (20-40 ms on a quiet server, 300-500 ms each in a loaded run).
 *
 * The globalSetup's process, idle while the workers run the tests, keeps
 * READY_COUNT of them (`ready_<n>`, made from template0 exactly as a test's
 * own would be); a worker takes one with ALTER DATABASE ... RENAME TO its own
 * name: atomic, so two workers never get the same one (the loser's rename
 * fails and it tries the next, or makes its own when none is left).
 *
 * Dropping likewise: a database a suite is done with is renamed `gone_...`
 * (when no session is left on it; else the worker drops it itself) and that
 * process drops it when it has time.
 */
export const READY_COUNT = 6;

const READY_PREFIX = 'ready_';
const GONE_PREFIX = 'gone_';

/** The ready databases, the oldest first (a few: a worker tries them in turn). */
export const READY_DATABASES_SQL = `select datname from pg_database where starts_with(datname, '${READY_PREFIX}') order by oid limit 4`;

/** The statement that takes a ready database as `database`. */
export function claimReadyDatabaseSql(ready: string, database: string): string {
  return `alter database ${quoteName(ready)} rename to ${quoteName(database)}`;
}

/** The statement that hands `database` over to be dropped later (it fails while a session is on it). */
export function retireDatabaseSql(database: string): string {
  return `alter database ${quoteName(database)} rename to ${quoteName(`${GONE_PREFIX}${database}`.slice(0, 63))}`;
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Keep READY_COUNT ready databases on the server, and drop the retired ones, until `stop` (which waits for a statement in flight). */
export async function keepReadyDatabases(server: PgServer): Promise<{ stop(): Promise<void> }> {
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, password: server.password, database: 'postgres' });
  client.on('error', () => {});
  await client.connect();
  let stopped = false;
  let made = 0;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from pg_database where starts_with(datname, '${READY_PREFIX}')`);
        if (rows[0]!.n < READY_COUNT) {
          made += 1;
          await client.query(`create database ${quoteName(`${READY_PREFIX}${made}`)} template template0`);
          continue;
        }
        const gone = await client.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, '${GONE_PREFIX}') limit 1`);
        if (gone.rows.length > 0) {
          await client.query(`drop database if exists ${quoteName(gone.rows[0]!.datname)} with (force)`);
          continue;
        }
      } catch {
        // The server going away at the end of the run (or anything else): the workers make their own.
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await client.end().catch(() => {});
    },
  };
}
