/**
 * The PostgreSQL side of the benchmarks: a throwaway cluster (the test
 * suite's own, test/support/pg-cluster.ts: initdb in a temp folder, a free
 * port on 127.0.0.1, stopped and removed at the end), and the example project
 * over the same three-year history on it (a `type: postgres` profile), seeded
 * through COPY and fully built once.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { loadSession, run } from '../src/index.js';
import { startPgCluster, type PgCluster } from '../test/support/pg-cluster.js';
import { copyExample, historyCsv, mustSucceed, type HistoryWorkspace } from './history-workspace.js';

export interface PgWorkspace extends HistoryWorkspace {
  readonly cluster: PgCluster;
  readonly database: string;
}

/** Start the throwaway cluster; undefined (with the reason logged) when PostgreSQL is not installed. */
export async function startBenchCluster(log: (line: string) => void): Promise<PgCluster | { unavailable: string }> {
  try {
    const cluster = await startPgCluster({ log, settings: LOAD_SERVER_SETTINGS });
    await tuneForAnalytics(cluster);
    return cluster;
  } catch (err) {
    return { unavailable: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
  }
}

/**
 * Set at the server's start (they need a restart): the WAL of a server that
 * loads and rebuilds tables rather than replicating them. With wal_level
 * minimal (no WAL senders) a table created in a transaction is not written to
 * the WAL while that transaction fills it: the seed's COPY into its staging
 * table and the CREATE INDEXes on it write the pages once (to the table,
 * synced at COMMIT) instead of twice (WAL, then table). mini-dbt does not
 * depend on it: on a default server (wal_level replica) the same load is
 * correct, it just writes the WAL too.
 */
const LOAD_SERVER_SETTINGS: Readonly<Record<string, string>> = { wal_level: 'minimal', max_wal_senders: '0' };

/**
 * The memory settings of a server that runs analytic queries, not the
 * defaults of a small shared one: sorts and hashes of a day range or a full
 * rebuild fit in memory (work_mem 64 MB instead of 4 MB, where they spilled to
 * disk), and an index build sorts in memory (maintenance_work_mem 256 MB).
 * The figures print the settings they ran with.
 */
async function tuneForAnalytics(cluster: PgCluster): Promise<void> {
  const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`alter system set work_mem = '64MB'`);
    await client.query(`alter system set maintenance_work_mem = '256MB'`);
    await client.query('select pg_reload_conf()');
  } finally {
    await client.end();
  }
}

/** The server's settings a figure depends on, for the notes. */
export async function serverSettings(cluster: PgCluster): Promise<string> {
  const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database: 'postgres' });
  await client.connect();
  try {
    const { rows } = await client.query(`select name, setting, unit from pg_settings where name in ('shared_buffers', 'maintenance_work_mem', 'work_mem', 'fsync', 'synchronous_commit', 'wal_level', 'max_wal_senders', 'max_parallel_maintenance_workers', 'jit') order by name`);
    return rows.map((r: { name: string; setting: string; unit: string | null }) => `${r.name}=${r.setting}${r.unit ?? ''}`).join(', ');
  } finally {
    await client.end();
  }
}

/**
 * raw_orders stays as the seed leaves it, without statistics (dbt-postgres's seeds do not ANALYZE
 * either), and autovacuum is kept off it: its ANALYZE, due within a minute of a 1.2M-row load, used
 * to land in the middle of the figures (noise). With statistics the planner reads the 54-day range
 * through a parallel scan of the whole load_date index (it guesses 16,639 rows for 58,663 and takes
 * `load_date <= (select max(...))` for a third of the table): 154 ms instead of a bitmap scan of the
 * (order_date, load_date) index; the nightly's day range, on the other hand, gets a hash instead of a
 * sort for its group (23 -> 16 ms). Both measured with bench/pg-trial.js (TRIAL_EXPLAIN, TRIAL_ANALYZE).
 */
async function keepAutovacuumOff(cluster: PgCluster, database: string): Promise<void> {
  const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database });
  await client.connect();
  try {
    await client.query('alter table analytics.raw_orders set (autovacuum_enabled = false)');
  } finally {
    await client.end();
  }
}

/** A new empty database on the cluster. */
export async function createDatabase(cluster: PgCluster, name: string): Promise<void> {
  const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.query(`create database "${name}" template template0`);
  } finally {
    await client.end();
  }
}

/** The example project in `dir` with a profiles.yml whose default target `pg` is `database` on the cluster. */
export function pgExampleProject(dir: string, cluster: PgCluster, database: string): void {
  copyExample(dir);
  appendFileSync(join(dir, 'project.yml'), '\nprofile: brightcart\n');
  writeFileSync(
    join(dir, 'profiles.yml'),
    [
      'brightcart:',
      '  target: pg',
      '  outputs:',
      '    pg:',
      '      type: postgres',
      `      host: ${cluster.host}`,
      `      port: ${cluster.port}`,
      `      user: ${cluster.user}`,
      `      password: ${JSON.stringify(cluster.password)}`,
      `      dbname: ${database}`,
      '      schema: analytics',
      '      threads: 1',
      '',
    ].join('\n'),
  );
}

/** The example over the history at `scale` on the cluster, seeded (COPY) and built. */
export async function createPgHistoryWorkspace(dir: string, scale: number, cluster: PgCluster): Promise<PgWorkspace> {
  const database = 'bench_history';
  await createDatabase(cluster, database);
  pgExampleProject(dir, cluster, database);
  const history = historyCsv(join(dir, 'seeds', 'raw_orders.csv'), scale);
  const session = loadSession({ projectDir: dir, profilesDir: dir });
  const t0 = performance.now();
  mustSucceed(await run({ session, command: 'build' }), 'seeding and building the history on PostgreSQL');
  await keepAutovacuumOff(cluster, database);
  return { dir, history, session, setupMs: performance.now() - t0, cluster, database };
}
