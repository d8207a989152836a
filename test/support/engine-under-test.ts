/**
 * Usage: run a suite once per engine, and build its projects on that engine.
 *   describeEachEngine('incremental merge', (engine) => {
 *     it('...', () => { const p = conformanceProject(files, 'name', { engine }); p.dbt(['run']); p.rows('m'); });
 *   });                     // miniProject(files, yml, { engine }) likewise; `engine` is 'sqlite' | 'postgres'.
 * The PostgreSQL half is describePg (skipped, with the reason, without a server); each project gets a fresh database of its own, dropped after the suite.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { useTargetEngine } from '../../src/engine/current-engine.js';
import type { Connection } from '../../src/engine/connection.js';
import { ConnectionLostError } from '../../src/engine/connection-lost.js';
import { openPostgres } from '../../src/engine/postgres/open-postgres.js';
import { closeIdlePostgresConnections } from '../../src/engine/postgres/pg-sync-client.js';
import { FILE_TARGET, type PostgresSettings } from '../../src/project/target.js';
import { claimReadyDatabaseSql, READY_DATABASES_SQL, retireDatabaseSql } from './pg-ready-databases.js';
import { describePg, pgDatabaseTarget, pgServer, pgProfilesYml, type PgTestTarget } from './pg-test-database.js';

export type EngineName = 'sqlite' | 'postgres';

export const ENGINES: readonly EngineName[] = ['sqlite', 'postgres'];

/** `describe(title, body)` once per engine: "<title> [sqlite]" and "<title> [postgres]" (the latter via describePg). */
export function describeEachEngine(title: string, body: (engine: EngineName) => void): void {
  describe(`${title} [sqlite]`, () => {
    startsOnSqlite();
    body('sqlite');
  });
  describePg(`${title} [postgres]`, () => pgSuite(() => {
    startsOnSqlite();
    body('postgres');
  }));
}

/**
 * Each test starts on SQLite's engine, as a command does before it loads its
 * project: a test of pure statement text is not answered in the dialect a
 * PostgreSQL build before it chose (a build chooses its own as it loads).
 */
function startsOnSqlite(): void {
  beforeEach(() => {
    useTargetEngine(FILE_TARGET);
  });
}

/** The body once per engine, in describes named after the engine (for a whole file's describes). */
export function forEachEngine(body: (engine: EngineName) => void): void {
  describe('sqlite', () => body('sqlite'));
  describePg('postgres', () => pgSuite(() => body('postgres')));
}

/** describePg whose projects' databases (pgProjectDatabase) are dropped after it. */
export function describePgProjects(title: string, body: () => void): void {
  describePg(title, () => pgSuite(body));
}

/**
 * A PostgreSQL suite's body, and the dropping of the databases it made: those
 * made while it was collected and while it ran (not another suite's, which
 * may be collected already and run later).
 */
function pgSuite(body: () => void): void {
  let atStart = new Set<string>();
  beforeAll(() => {
    atStart = new Set(made);
  });
  const before = new Set(made);
  body();
  const collected = [...made].filter((d) => !before.has(d));
  afterAll(() => {
    for (const database of [...collected, ...[...made].filter((d) => !atStart.has(d))]) dropDatabase(database, true);
    if (made.size === 0) closeAdmin();
  });
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

function settingsFor(database: string): PostgresSettings {
  const server = pgServer();
  return { host: server.host, port: server.port, user: server.user, password: server.password, dbname: database, connectTimeout: 10 };
}

let admin: Connection | undefined;
const made = new Set<string>();
let counter = 0;

/** A connection on the server's `postgres` database, for CREATE / DROP DATABASE (kept for the worker). */
function adminConnection(): Connection {
  admin ??= openPostgres('pg-admin', { busyTimeoutMs: 10_000 }, settingsFor('postgres'), 'public');
  return admin;
}

/**
 * A new empty database, made synchronously (so projects can be created in an
 * `it` or at collection time), optionally as a copy of `template` (which must
 * have no session open on it). Dropped by the engine suite's afterAll.
 */
export function pgProjectDatabase(label: string, template?: string): PgTestTarget {
  const server = pgServer();
  counter += 1;
  const database = `p${process.pid}_${counter}_${label.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`.slice(0, 63);
  if (template !== undefined) closePgReaders(template);
  if (template !== undefined || !claimReadyDatabase(database)) {
    adminConnection().exec(`create database ${quoteName(database)} template ${quoteName(template ?? 'template0')}`);
  }
  made.add(database);
  return pgDatabaseTarget(server, database, async () => dropDatabase(database));
}

/** Take one of the databases the globalSetup made ahead from template0 (pg-ready-databases.ts) as `database`; false when none was left. */
function claimReadyDatabase(database: string): boolean {
  const admin = adminConnection();
  for (const { datname } of admin.all<{ datname: string }>(READY_DATABASES_SQL)) {
    try {
      admin.exec(claimReadyDatabaseSql(datname, database));
      return true;
    } catch {
      // Another worker took it first.
    }
  }
  return false;
}

/**
 * Drop a database made here: at once when a test asks (`drop()`: it may go on
 * to drop a role owning objects in it), or at the end of its suite `later`,
 * in the background by the globalSetup's process (pg-ready-databases.ts)
 * unless a session is still on it (a CLI a test killed: ended by the drop).
 */
function dropDatabase(database: string, later = false): void {
  if (!made.delete(database)) return;
  closePgReaders(database);
  const admin = adminConnection();
  if (later) {
    try {
      admin.exec(retireDatabaseSql(database));
      return;
    } catch {
      // a session is still on it
    }
  }
  admin.exec(`drop database if exists ${quoteName(database)} with (force)`);
}

function closeAdmin(): void {
  admin?.close();
  admin = undefined;
}

/** The profiles.yml text of a project on that database: profile `profile`, default target `pg`. */
export function pgProjectProfiles(target: PgTestTarget, profile: string): string {
  return pgProfilesYml(target, { profile, target: 'pg' });
}

/**
 * The warehouse as a test reads it, the same on both engines: rows, relation
 * kinds, columns, raw SQL. Opened per use and closed by `close`.
 */
export interface WarehouseReader {
  all(sql: string, ...params: unknown[]): Record<string, unknown>[];
  exec(sql: string): void;
  /** 'table', 'view', or undefined. */
  kind(relation: string): 'table' | 'view' | undefined;
  /** Columns in order, with their declared types ('' when none). */
  columns(relation: string): { name: string; type: string }[];
  /** The named indexes of a table (not those behind constraints), columns in order. */
  indexes(table: string): { name: string; columns: string[]; unique: boolean }[];
  close(): void;
}

export function sqliteReader(path: string, options: { readonly?: boolean } = {}): WarehouseReader {
  const db = new Database(path, { readonly: options.readonly ?? false });
  return {
    all: (sql, ...params) => db.prepare(sql).all(...params) as Record<string, unknown>[],
    exec: (sql) => void db.exec(sql),
    kind: (relation) => (db.prepare("select type from sqlite_master where name = ? and type in ('table', 'view')").get(relation) as { type: 'table' | 'view' } | undefined)?.type,
    columns: (relation) => db.prepare('select name, type from pragma_table_info(?)').all(relation) as { name: string; type: string }[],
    indexes: (table) => (db.prepare("select name, \"unique\" as u from pragma_index_list(?) where origin = 'c' order by name").all(table) as { name: string; u: number }[])
      .map((i) => ({ name: i.name, columns: (db.prepare('select name from pragma_index_info(?) order by seqno').all(i.name) as { name: string | null }[]).map((c) => c.name ?? ''), unique: i.u === 1 })),
    close: () => db.close(),
  };
}

/**
 * A reader on the target's database and schema. Its session is kept open
 * after `close` for the next reader of the same place (a test reads its
 * project's warehouse after each command: a new session each time was most
 * of a read's cost), the last KEPT_SESSIONS places of the worker; idle
 * between statements (autocommit, no lock held). It is ended before its
 * database is dropped or copied (closePgReaders), and a session the server
 * ended is replaced.
 */
export function pgReader(target: PgTestTarget): WarehouseReader {
  const key = `${target.database}\u0000${target.schema}`;
  const session = <T>(use: (db: Connection) => T): T => {
    const db = keptSession(key, target);
    try {
      return use(db);
    } catch (err) {
      if (!(err instanceof ConnectionLostError)) throw err;
      forget(key);
      return use(keptSession(key, target));
    }
  };
  return {
    all: (sql, ...params) => session((db) => db.all<Record<string, unknown>>(sql, ...params)),
    exec: (sql) => session((db) => db.exec(sql)),
    kind: (relation) => session((db) => db.relationKind(relation) ?? undefined),
    columns: (relation) => session((db) => db.relationColumns(relation)),
    indexes: (table) => session((db) => db.relationIndexes(table)),
    close: () => {},
  };
}

const KEPT_SESSIONS = 2;
/** Reader sessions by database and schema, the most recently used last. */
const kept = new Map<string, Connection>();

function keptSession(key: string, target: PgTestTarget): Connection {
  let db = kept.get(key);
  if (db) kept.delete(key);
  else db = openPostgres(`pg-test-${target.database}`, { busyTimeoutMs: 10_000 }, settingsFor(target.database), target.schema);
  kept.set(key, db);
  for (const old of [...kept.keys()].slice(0, Math.max(0, kept.size - KEPT_SESSIONS))) forget(old);
  return db;
}

function forget(key: string): void {
  const db = kept.get(key);
  kept.delete(key);
  try {
    db?.close();
  } catch {
    // already gone
  }
}

/**
 * End the kept reader sessions on `database` (before it is dropped, renamed or copied: those need it
 * alone), and the connections this process's runs released and keep idle (PgSyncClient.release).
 */
function closePgReaders(database: string): void {
  for (const key of [...kept.keys()]) if (key.startsWith(`${database}\u0000`)) forget(key);
  closeIdlePostgresConnections();
}

/** Run `fn` with a reader, closed after. */
export function withReader<T>(open: () => WarehouseReader, fn: (reader: WarehouseReader) => T): T {
  const reader = open();
  try {
    return fn(reader);
  } finally {
    reader.close();
  }
}

/**
 * Every user relation of a PostgreSQL database (but the ledger's), its
 * columns, indexes, view text and rows: warehouseSnapshot's counterpart, to
 * prove a failed command changed nothing.
 */
export function pgWarehouseSnapshot(target: PgTestTarget): Record<string, unknown> {
  return withReader(() => pgReader(target), (db) => {
    const objects = db.all(
      `select n.nspname as schema, c.relname as name, case c.relkind when 'v' then 'view' when 'i' then 'index' else 'table' end as type,
              case when c.relkind = 'v' then pg_get_viewdef(c.oid) when c.relkind = 'i' then pg_get_indexdef(c.oid) end as sql
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'i') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
         and c.relname not like '\\_mini\\_dbt\\_%'
       order by 1, 3, 2`,
    ) as { schema: string; name: string; type: string }[];
    const snapshot: Record<string, unknown> = { schema: objects };
    for (const o of objects.filter((x) => x.type === 'table')) {
      const relation = `${quoteName(o.schema)}.${quoteName(o.name)}`;
      const columns = db.all(
        `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = ? and c.relname = ? and a.attnum > 0 and not a.attisdropped order by a.attnum`,
        o.schema,
        o.name,
      ) as { name: string; type: string }[];
      const key = o.schema === target.schema ? o.name : `${o.schema}.${o.name}`;
      snapshot[`${key}:columns`] = columns;
      snapshot[key] = columns.length === 0 ? [] : db.all(`select * from ${relation} order by ${columns.map((c) => quoteName(c.name)).join(', ')}`);
    }
    return snapshot;
  });
}
