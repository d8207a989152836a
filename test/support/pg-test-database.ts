import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { PG_ENV, type PgServer, type PgTestEnvironment } from './pg-cluster.js';
import { claimReadyDatabaseSql, READY_DATABASES_SQL } from './pg-ready-databases.js';

/**
 * The throwaway PostgreSQL server of the run (test/support/pg-global-setup.ts)
 * as the tests see it: is it there (else why not), and a fresh, empty place
 * of their own on it, with its dbt `profiles.yml` output.
 *
 *   describePg('seeds on PostgreSQL', () => {
 *     let db: PgTestTarget;
 *     beforeAll(async () => { db = await freshPgDatabase('seeds'); });
 *     afterAll(() => db.drop());
 *     it('loads', async () => {
 *       writePgProfiles(projectDir, db, { profile: 'brightcart' });
 *       ...
 *     });
 *   });
 *
 * freshPgDatabase (a database made ahead from template0 by the globalSetup,
 * renamed: ~1 ms; ~8 MB on disk until dropped) isolates everything a run creates: the ledger, custom
 * schemas, a replay's scratch schema. freshPgSchema (~1 ms) is a schema in the
 * shared `mini_dbt_test` database, for tests whose objects all live in the
 * target schema. Names carry the worker's pid and a counter: concurrent test
 * files never collide.
 */

/** A fresh, empty place on the test server: connect to `database`, build into `schema`. */
export interface PgTestTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The database (dbt's `dbname`). */
  database: string;
  /** The target schema (dbt's `schema`): `public` of a fresh database, or the fresh schema. */
  schema: string;
  /** postgres://user:password@host:port/database */
  connectionString: string;
  /** Drop what was made for this target (the database, or the schema with everything in it). Idempotent. */
  drop(): Promise<void>;
}

// What the globalSetup provides (here, not in pg-cluster.ts: the bench imports that one and has no vitest).
declare module 'vitest' {
  export interface ProvidedContext {
    miniDbtPg: PgTestEnvironment;
  }
}

let cached: PgTestEnvironment | undefined;

/** The run's server as the globalSetup reported it: `inject('miniDbtPg')`, else the MINI_DBT_TEST_PG_* variables. */
export function pgEnvironment(): PgTestEnvironment {
  if (cached) return cached;
  let provided: PgTestEnvironment | undefined;
  try {
    provided = inject('miniDbtPg');
  } catch {
    /* not in a vitest worker */
  }
  cached = provided ?? environmentFromEnv();
  return cached;
}

function environmentFromEnv(): PgTestEnvironment {
  const env = process.env;
  if (env[PG_ENV.host] && env[PG_ENV.port] && env[PG_ENV.user] && env[PG_ENV.database]) {
    return {
      available: true,
      server: { host: env[PG_ENV.host]!, port: Number(env[PG_ENV.port]), user: env[PG_ENV.user]!, password: env[PG_ENV.password] ?? '', database: env[PG_ENV.database]!, version: 'unknown' },
    };
  }
  return { available: false, reason: env[PG_ENV.unavailable] ?? 'no PostgreSQL test server: test/support/pg-global-setup.ts did not run (is it in vitest.config.ts globalSetup?)' };
}

/** Whether the run has a PostgreSQL server. */
export function pgAvailable(): boolean {
  return pgEnvironment().available;
}

/** Why the PostgreSQL tests are skipped; undefined when the server is there. */
export function pgSkipReason(): string | undefined {
  const environment = pgEnvironment();
  return environment.available ? undefined : environment.reason;
}

/** The server's coordinates (the superuser, the shared `mini_dbt_test` database); throws when unavailable. */
export function pgServer(): PgServer {
  const environment = pgEnvironment();
  if (!environment.available) throw new Error(`no PostgreSQL test server: ${environment.reason}`);
  return environment.server;
}

const warned = new Set<string>();

/**
 * `describe` that runs only with a PostgreSQL server; without one the suite is
 * reported skipped with the reason in its name (and a console note).
 */
export function describePg(title: string, body: () => void): void {
  const reason = pgSkipReason();
  if (reason === undefined) {
    describe(title, body);
    return;
  }
  if (!warned.has(title)) {
    warned.add(title);
    console.warn(`skipped "${title}": ${reason}`);
  }
  describe.skip(`${title} [skipped: ${reason.replace(/\s*\n\s*/g, ' | ')}]`, body);
}

let counter = 0;

/** A unique, valid, lowercase identifier: prefix, the worker's pid, a counter, the label. */
function uniqueName(prefix: string, label: string | undefined): string {
  counter += 1;
  const tail = label ? `_${label.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '')}` : '';
  return `${prefix}${process.pid}_${counter}${tail}`.slice(0, 63).replace(/_+$/, '');
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function connectionString(server: PgServer, database: string): string {
  return `postgres://${encodeURIComponent(server.user)}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${encodeURIComponent(database)}`;
}

/** A connected `pg` client on the target's (or the server's shared) database; `end()` it when done. */
export async function connectPg(target?: Pick<PgTestTarget, 'host' | 'port' | 'user' | 'password' | 'database'>): Promise<pg.Client> {
  const { host, port, user, password, database } = target ?? pgServer();
  const client = new pg.Client({ host, port, user, password, database });
  await client.connect();
  return client;
}

/** Run `fn` with a client on the target's database (the server's shared one by default), closed after. */
export async function withPgClient<T>(fn: (client: pg.Client) => Promise<T>, target?: Pick<PgTestTarget, 'host' | 'port' | 'user' | 'password' | 'database'>): Promise<T> {
  const client = await connectPg(target);
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database of its own (from template0; its target schema is `public`). */
export async function freshPgDatabase(label?: string): Promise<PgTestTarget> {
  const server = pgServer();
  const database = uniqueName('t', label);
  await withPgClient(async (client) => {
    // One made ahead by the globalSetup (pg-ready-databases.ts), else a new one.
    for (const { datname } of (await client.query<{ datname: string }>(READY_DATABASES_SQL)).rows) {
      try {
        await client.query(claimReadyDatabaseSql(datname, database));
        return;
      } catch {
        // Another worker took it first.
      }
    }
    await client.query(`CREATE DATABASE ${quoteIdent(database)} TEMPLATE template0`);
  }, { ...server, database: 'postgres' });
  let dropped: Promise<void> | undefined;
  return pgDatabaseTarget(server, database, () => (dropped ??= withPgClient(async (client) => {
    // WITH (FORCE): a CLI the test killed may have left a session behind.
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`);
  }, { ...server, database: 'postgres' })));
}

/** A database of the test server as a target (schema `public`), dropped by `drop`. */
export function pgDatabaseTarget(server: PgServer, database: string, drop: () => Promise<void>): PgTestTarget {
  return {
    host: server.host,
    port: server.port,
    user: server.user,
    password: server.password,
    database,
    schema: 'public',
    connectionString: connectionString(server, database),
    drop,
  };
}

/** A new empty schema of its own in the server's shared `mini_dbt_test` database. */
export async function freshPgSchema(label?: string): Promise<PgTestTarget> {
  const server = pgServer();
  const schema = uniqueName('s', label);
  await withPgClient((client) => client.query(`CREATE SCHEMA ${quoteIdent(schema)}`), server);
  let dropped: Promise<void> | undefined;
  return {
    host: server.host,
    port: server.port,
    user: server.user,
    password: server.password,
    database: server.database,
    schema,
    connectionString: connectionString(server, server.database),
    drop: () => (dropped ??= withPgClient(async (client) => {
      await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    }, server)),
  };
}

export interface PgProfileOptions {
  /** dbt's `threads` (default 1). */
  threads?: number;
  /** Write `password: "{{ env_var('<name>') }}"` instead of the password itself (the globalSetup sets MINI_DBT_TEST_PG_PASSWORD). */
  passwordEnvVar?: string;
  /** Override or add keys (sslmode, connect_timeout, keepalives_idle, a wrong password or port...). */
  extra?: Record<string, string | number | boolean>;
}

/** The `type: postgres` output's keys for the target, as dbt-postgres spells them. */
export function pgProfileOutput(target: PgTestTarget, options: PgProfileOptions = {}): Record<string, string | number | boolean> {
  return {
    type: 'postgres',
    host: target.host,
    port: target.port,
    user: target.user,
    password: options.passwordEnvVar ? `{{ env_var('${options.passwordEnvVar}') }}` : target.password,
    dbname: target.database,
    schema: target.schema,
    threads: options.threads ?? 1,
    ...options.extra,
  };
}

/** The output as YAML lines, indented by `indent` spaces (6 fits under `<profile>:\n  outputs:\n    <name>:`). */
export function pgOutputYaml(target: PgTestTarget, options: PgProfileOptions = {}, indent = 6): string {
  const pad = ' '.repeat(indent);
  return Object.entries(pgProfileOutput(target, options))
    .map(([key, value]) => `${pad}${key}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}\n`)
    .join('');
}

export interface PgProfilesYmlOptions extends PgProfileOptions {
  /** The profile's name (the project's `profile:`). */
  profile: string;
  /** The output's name (default `pg`). */
  target?: string;
  /** Whether it is the profile's default `target:` (default true). */
  isDefault?: boolean;
  /** More outputs, as YAML already indented under `outputs:` (4 spaces for their names), e.g. a sqlite `dev`. */
  otherOutputs?: string;
  /** The default target when it is not this one. */
  defaultTarget?: string;
}

/** A whole profiles.yml with the target as a `type: postgres` output. */
export function pgProfilesYml(target: PgTestTarget, options: PgProfilesYmlOptions): string {
  const name = options.target ?? 'pg';
  const defaultTarget = options.isDefault === false ? options.defaultTarget : (options.defaultTarget ?? name);
  return [
    `${options.profile}:\n`,
    defaultTarget ? `  target: ${defaultTarget}\n` : '',
    '  outputs:\n',
    `    ${name}:\n`,
    pgOutputYaml(target, options, 6),
    options.otherOutputs ?? '',
  ].join('');
}

/** Write `<dir>/profiles.yml` (pgProfilesYml); returns its path. */
export function writePgProfiles(dir: string, target: PgTestTarget, options: PgProfilesYmlOptions): string {
  const path = join(dir, 'profiles.yml');
  writeFileSync(path, pgProfilesYml(target, options));
  return path;
}
