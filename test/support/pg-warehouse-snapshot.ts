import type pg from 'pg';
import { pgServer, withPgClient, type PgTestTarget } from './pg-test-database.js';
import { closeIdlePostgresConnections } from '../../src/engine/postgres/pg-sync-client.js';

/**
 * A PostgreSQL warehouse as the crash tests compare it (what
 * warehouse-snapshot.ts is for a SQLite file): every relation of the user's
 * schemas with its kind, every index's definition, every view's text, and
 * every table's rows, sorted (each value as its text: exactly what is
 * stored). The ledger tables (_mini_dbt_*) are left out: they record an
 * interrupted run on purpose.
 */
export async function pgWarehouseSnapshot(target: Pick<PgTestTarget, 'host' | 'port' | 'user' | 'password' | 'database'>): Promise<Record<string, unknown>> {
  return withPgClient(async (client) => {
    const objects = (await client.query(`
      select n.nspname as schema, c.relname as name, c.relkind as kind,
        case c.relkind when 'v' then pg_get_viewdef(c.oid) when 'i' then pg_get_indexdef(c.oid) end as sql
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg\\_temp%' and n.nspname not like 'pg\\_toast%'
        and c.relkind in ('r', 'p', 'v', 'm', 'i') and c.relname not like '\\_mini\\_dbt\\_%'
      order by 1, 2`)).rows as { schema: string; name: string; kind: string; sql: string | null }[];
    const snapshot: Record<string, unknown> = { schema: objects };
    for (const o of objects.filter((x) => x.kind === 'r' || x.kind === 'p')) {
      snapshot[`${o.schema}.${o.name}`] = await tableRows(client, o.schema, o.name);
    }
    return snapshot;
  }, target);
}

async function tableRows(client: pg.Client, schema: string, name: string): Promise<string[]> {
  const q = (n: string) => `"${n.replace(/"/g, '""')}"`;
  // Each row as one text (its columns' texts), sorted: independent of the physical order.
  const r = await client.query({ text: `select t::text as row from ${q(schema)}.${q(name)} t order by 1`, rowMode: 'array' });
  return (r.rows as string[][]).map((row) => row[0]!);
}

/** A copy of a database (CREATE DATABASE ... TEMPLATE): the warehouse as it was, for one trial. */
export async function clonePgDatabase(template: string, name: string): Promise<void> {
  const server = pgServer();
  // Connections this process's runs released stay open a while (PgSyncClient.release): ended first.
  closeIdlePostgresConnections();
  await withPgClient(async (client) => {
    // The template must have no session on it: a CLI that just exited may take a moment to leave.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        if (attempt > 50 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, { ...server, database: 'postgres' });
}

export async function dropPgDatabase(name: string): Promise<void> {
  const server = pgServer();
  await withPgClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`), { ...server, database: 'postgres' });
}

/** Wait until no other session is on the database (a killed CLI's backend ends once it notices; its transaction rolls back). */
export async function waitForNoSessions(database: string, timeoutMs = 15_000): Promise<void> {
  const server = pgServer();
  await withPgClient(async (client) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
      if (rows[0].n === 0) return;
      if (Date.now() > deadline) throw new Error(`a session on ${database} did not end within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, { ...server, database: 'postgres' });
}

/** The statuses of the runs the ledger recorded, oldest first. */
export async function pgLedgerStatuses(target: Pick<PgTestTarget, 'host' | 'port' | 'user' | 'password' | 'database'>): Promise<string[]> {
  return withPgClient(async (client) => (await client.query('select status from public._mini_dbt_runs order by started_at')).rows.map((r: { status: string }) => r.status), target);
}
