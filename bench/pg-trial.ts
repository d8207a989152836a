/**
 * A quick PostgreSQL trial for profiling, outside the figures (nothing is
 * written to bench/README.md):
 *
 *   node dist/bench/pg-trial.js seed [rounds]      the seed load, engine only, phase by phase
 *   node dist/bench/pg-trial.js nightly [rounds]   the nightly run of daily_revenue, in process
 *   node dist/bench/pg-trial.js backfill [rounds]  `mini-dbt backfill` (the API) of one day of daily_revenue
 *
 * on the bench's own throwaway cluster (same settings as the figures). With
 * MINI_DBT_PG_TRACE=1 every round trip is logged with its milliseconds. After
 * the nightlies, TRIAL_TIME=<file> times that SQL on a warm session (alone,
 * and as CREATE TEMP TABLE AS + DROP), TRIAL_EXPLAIN=<file> explains it.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import pg from 'pg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../src/feed/iso-date.js';
import { backfill, run } from '../src/index.js';
import { historyCsv, mustSucceed } from './history-workspace.js';
import { createDatabase, createPgHistoryWorkspace, pgExampleProject, serverSettings, startBenchCluster } from './pg-workspace.js';
import { spawnJson } from './spawn-node.js';

const [mode = 'nightly', roundsArg = '5'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-pg-trial-'));
const started = await startBenchCluster((line) => process.stderr.write(`${line}\n`));
if ('unavailable' in started) throw new Error(started.unavailable);
const cluster = started;
try {
  process.stderr.write(`${await serverSettings(cluster)}\n`);
  if (mode === 'seed') {
    const csv = historyCsv(join(dir, 'raw_orders.csv'), 1);
    const project = join(dir, 'seed-project');
    await createDatabase(cluster, 'trial_seed');
    pgExampleProject(project, cluster, 'trial_seed');
    symlinkSync(csv.path, join(project, 'seeds', 'raw_orders.csv'));
    for (let i = 0; i < rounds; i++) {
      const r = await spawnJson<{ ms: number; rows: number; copyMs: number; indexMs: number }>([join(import.meta.dirname, 'seed-load-child.js'), 'mini-dbt-pg', project, '-']);
      process.stdout.write(`seed: ${Math.round(r.ms)} ms, ${Math.round(r.rows / (r.ms / 1000))} rows/s (copy wait ${Math.round(r.copyMs)} ms, indexes ${Math.round(r.indexMs)} ms)\n`);
    }
  } else {
    const ws = await createPgHistoryWorkspace(join(dir, 'history'), 1, cluster);
    process.stderr.write(`workspace built in ${Math.round(ws.setupMs)} ms\n`);
    const select = ['daily_revenue'];
    const vars = { lookback_days: 11 };
    const end = addDays(ws.history.end, -6);
    for (let i = 0; i < rounds && mode === 'backfill'; i++) {
      process.stderr.write(`--- backfill ${i}\n`);
      const t0 = performance.now();
      const days = Number(process.env.TRIAL_DAYS ?? 1);
      const result = await backfill({ session: ws.session, model: 'daily_revenue', start: addDays(end, -(days - 1)), end, reason: 'trial' });
      if (result.exitCode !== 0) throw new Error('backfill failed');
      process.stdout.write(`backfill of ${days} day(s): ${(performance.now() - t0).toFixed(1)} ms\n`);
    }
    for (let i = 0; i < rounds && mode === 'nightly'; i++) {
      process.stderr.write(`--- nightly ${i}\n`);
      const t0 = performance.now();
      mustSucceed(await run({ session: ws.session, select, vars }), 'nightly run');
      process.stdout.write(`nightly: ${(performance.now() - t0).toFixed(1)} ms\n`);
    }
    const timing = process.env.TRIAL_TIME;
    if (timing) {
      // The model's SELECT alone against it as a temp table (CTAS + drop), 15 times each, medians.
      const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database: ws.database });
      await client.connect();
      await client.query('set search_path = analytics, public');
      const sql = readFileSync(timing, 'utf8');
      if (process.env.TRIAL_ANALYZE) await client.query('analyze analytics.raw_orders');
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
      const plain: number[] = [];
      const ctas: number[] = [];
      for (let i = 0; i < 15; i++) {
        let t = performance.now();
        await client.query(sql);
        plain.push(performance.now() - t);
        t = performance.now();
        await client.query(`create temp table trial_t as ${sql}`);
        await client.query('drop table trial_t');
        ctas.push(performance.now() - t);
      }
      process.stdout.write(`select ${med(plain).toFixed(1)} ms, create temp table as + drop ${med(ctas).toFixed(1)} ms\n`);
      await client.end();
    }
    const explain = process.env.TRIAL_EXPLAIN;
    if (explain) {
      const client = new pg.Client({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database: ws.database });
      await client.connect();
      await client.query('set search_path = analytics, public');
      const text = readFileSync(explain, 'utf8');
      const { rows } = await client.query(/^\s*select\b.*\bpg_stat/is.test(text) ? text : `explain (analyze, buffers, settings) ${text}`);
      process.stdout.write(`${rows.map((r: Record<string, unknown>) => String(r['QUERY PLAN'] ?? JSON.stringify(r))).join('\n')}\n`);
      await client.end();
    }
  }
} finally {
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
