import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import {
  connectPg,
  describePg,
  freshPgDatabase,
  freshPgSchema,
  pgAvailable,
  pgServer,
  pgSkipReason,
  writePgProfiles,
  type PgTestTarget,
} from '../support/pg-test-database.js';

it('the run knows whether it has a PostgreSQL server, and says why not', () => {
  const provided = inject('miniDbtPg');
  expect(provided).toBeDefined();
  if (!pgAvailable()) {
    // Reported, not silently passed: every describePg suite below shows as skipped with this reason.
    console.warn(`PostgreSQL tests skipped: ${pgSkipReason()}`);
    expect(pgSkipReason()).toMatch(/\S/);
    expect(process.env.MINI_DBT_TEST_PG_UNAVAILABLE).toBe(pgSkipReason());
    return;
  }
  expect(pgSkipReason()).toBeUndefined();
  // The workers inherit the variables the globalSetup set before forking (and pass them to the CLIs they spawn).
  const server = pgServer();
  expect(process.env.MINI_DBT_TEST_PG_HOST).toBe(server.host);
  expect(process.env.MINI_DBT_TEST_PG_PORT).toBe(String(server.port));
  expect(process.env.MINI_DBT_TEST_PG_USER).toBe(server.user);
  expect(process.env.MINI_DBT_TEST_PG_PASSWORD).toBe(server.password);
  expect(process.env.MINI_DBT_TEST_PG_DATABASE).toBe(server.database);
  expect(process.env.MINI_DBT_TEST_PG_UNAVAILABLE).toBeUndefined();
  expect(server.host).toBe('127.0.0.1');
});

describePg('the throwaway PostgreSQL cluster', () => {
  let schema: PgTestTarget;
  let database: PgTestTarget;
  beforeAll(async () => {
    [schema, database] = await Promise.all([freshPgSchema('smoke'), freshPgDatabase('smoke')]);
  });
  afterAll(async () => {
    await Promise.all([schema?.drop(), database?.drop()]);
  });

  it('a fresh schema: create a table, insert, select the rows back', async () => {
    const client = await connectPg(schema);
    try {
      const { rows: before } = await client.query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [schema.schema]);
      expect(before).toEqual([{ n: 0 }]);
      await client.query(`CREATE TABLE "${schema.schema}".orders (id int PRIMARY KEY, amount numeric(12,2), placed date)`);
      await client.query(`INSERT INTO "${schema.schema}".orders VALUES (1, 12.30, '2024-01-31'), (2, 0.10, '2024-02-01')`);
      const { rows } = await client.query(`SELECT id, amount::text, placed::text FROM "${schema.schema}".orders ORDER BY id`);
      expect(rows).toEqual([
        { id: 1, amount: '12.30', placed: '2024-01-31' },
        { id: 2, amount: '0.10', placed: '2024-02-01' },
      ]);
    } finally {
      await client.end();
    }
  });

  it('a fresh database: empty, its own, dropped at the end', async () => {
    expect(database.database).not.toBe(schema.database);
    const client = await connectPg(database);
    try {
      const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' AND nspname <> 'public'");
      expect(rows).toEqual([{ n: 0 }]);
      const { rows: settings } = await client.query("SELECT current_setting('fsync') AS fsync, current_setting('TimeZone') AS tz, current_setting('server_encoding') AS enc");
      expect(settings).toEqual([{ fsync: 'off', tz: 'UTC', enc: 'UTF8' }]);
    } finally {
      await client.end();
    }
  });

  it('a wrong password is refused with SQLSTATE 28P01', async () => {
    const server = pgServer();
    const client = new pg.Client({ host: server.host, port: server.port, user: server.user, password: 'not-the-password', database: server.database });
    client.on('error', () => {});
    const error = await client.connect().then(() => undefined, (e: unknown) => e as { code?: string; message: string });
    await client.end().catch(() => {});
    expect(error?.code).toBe('28P01');
    expect(error?.message).toMatch(/password authentication failed for user "mini_dbt"/);
  });

  it('profiles.yml: a dbt-postgres output for the target', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-pg-profile-'));
    try {
      const path = writePgProfiles(dir, schema, { profile: 'brightcart', threads: 4, passwordEnvVar: 'MINI_DBT_TEST_PG_PASSWORD' });
      expect(parse(readFileSync(path, 'utf8'))).toEqual({
        brightcart: {
          target: 'pg',
          outputs: {
            pg: {
              type: 'postgres',
              host: schema.host,
              port: schema.port,
              user: schema.user,
              password: "{{ env_var('MINI_DBT_TEST_PG_PASSWORD') }}",
              dbname: schema.database,
              schema: schema.schema,
              threads: 4,
            },
          },
        },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
