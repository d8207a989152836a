/**
 * The PostgreSQL figures (issue 17), on a throwaway cluster the bench starts
 * and stops itself, with the same three-year history as the SQLite figures:
 *
 * - seed load through COPY, rows/s and peak memory, side by side with the
 *   floor (the server's own CSV COPY of the file into text columns, no checks,
 *   no index), each load a fresh process;
 * - nightly run / full rebuild and 54-day backfill / full rebuild of
 *   daily_revenue, measured as the SQLite ones are (nightly-figure.ts,
 *   backfill-figure.ts run against the PostgreSQL workspace), with the seed's
 *   two indexes (its `indexes` config) serving the window reads.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { useTargetEngine } from '../src/engine/current-engine.js';
import { FILE_TARGET } from '../src/project/target.js';
import { backfillFigures } from './backfill-figure.js';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, notMeasured, type Figure } from './figure.js';
import { nightlyFigure } from './nightly-figure.js';
import { createPgHistoryWorkspace, pgExampleProject, createDatabase, serverSettings, startBenchCluster } from './pg-workspace.js';
import { median, sideBySide } from './side-by-side.js';
import { spawnJson } from './spawn-node.js';
import type { PgCluster } from '../test/support/pg-cluster.js';

const CHILD = join(import.meta.dirname, 'seed-load-child.js');
const TARGET_ROWS_PER_S = 300_000;

interface ChildReport {
  ms: number;
  rows: number;
  maxRssKiB: number;
  /** The engine's loads: milliseconds waiting on the COPY (batches the server had not taken yet), and on the CREATE INDEXes. */
  copyMs?: number;
  indexMs?: number;
}

export async function pgFigures(ctx: BenchContext): Promise<Figure[]> {
  const started = await startBenchCluster((line) => ctx.log(line));
  if ('unavailable' in started) {
    const why = `no PostgreSQL: ${started.unavailable}`;
    return [
      notMeasured('pg-seed-load', 'PostgreSQL: seed load through COPY', `>= ${TARGET_ROWS_PER_S.toLocaleString('en-US')} rows/s`, why),
      notMeasured('pg-nightly', 'PostgreSQL: nightly run / full rebuild', 'as on SQLite', why),
      notMeasured('pg-backfill', 'PostgreSQL: backfill / full rebuild', 'as on SQLite', why),
    ];
  }
  const cluster = started;
  try {
    const settings = await serverSettings(cluster);
    ctx.log(`PostgreSQL ${cluster.version}: ${settings}`);
    const server = `PostgreSQL ${cluster.version} (throwaway cluster: ${settings})`;
    const seed = await seedFigure(ctx, cluster, server);
    const workspace = await createPgHistoryWorkspace(ctx.path('pg-history'), ctx.scale, cluster);
    ctx.log(`PostgreSQL history x${ctx.scale}: seeded and built in ${(workspace.setupMs / 1000).toFixed(1)} s`);
    // The history figures only ask the context for its workspace and its rounds.
    const onPg = { history: () => Promise.resolve(workspace), repeats: ctx.repeats, scale: ctx.scale, log: (m: string) => ctx.log(m), path: (...p: string[]) => ctx.path(...p) } as unknown as BenchContext;
    const nightly = await nightlyFigure(onPg);
    const backfills = await backfillFigures(onPg);
    const onPostgres = (f: Figure): Figure => ({ ...f, id: `pg-${f.id}`, title: `PostgreSQL: ${f.title}`, note: [f.note, server].filter(Boolean).join('; ') });
    return [seed, onPostgres(nightly), ...backfills.map(onPostgres)];
  } finally {
    await cluster.stop();
    // The figures after this one (and a rerun in the same process) are SQLite's again.
    useTargetEngine(FILE_TARGET);
  }
}

async function seedFigure(ctx: BenchContext, cluster: PgCluster, server: string): Promise<Figure> {
  const csv = ctx.historyCsv(1);
  const project = ctx.path('pg-seed-project');
  await createDatabase(cluster, 'bench_seed');
  pgExampleProject(project, cluster, 'bench_seed');
  symlinkSync(csv.path, join(project, 'seeds', 'raw_orders.csv'));
  const connection = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database: 'bench_seed' });
  const reports: Record<'engine' | 'floor', ChildReport[]> = { engine: [], floor: [] };
  const load = (key: 'engine' | 'floor') => async () => {
    const args = key === 'engine' ? [CHILD, 'mini-dbt-pg', project, '-'] : [CHILD, 'floor-pg', csv.path, connection];
    const report = await spawnJson<ChildReport>(args);
    if (report.rows !== csv.rows) throw new Error(`${key} loaded ${report.rows} rows on PostgreSQL, expected ${csv.rows}`);
    reports[key].push(report);
    return report.ms;
  };
  const { medians } = await sideBySide({ engine: load('engine'), floor: load('floor') }, ctx.repeats, 0);
  const rowsPerS = csv.rows / (medians.engine / 1000);
  const rss = median(reports.engine.map((r) => r.maxRssKiB)) / 1024;
  const floorRss = median(reports.floor.map((r) => r.maxRssKiB)) / 1024;
  const copyMs = median(reports.engine.map((r) => r.copyMs ?? 0));
  const indexMs = median(reports.engine.map((r) => r.indexMs ?? 0));
  const loadPhaseMs = medians.engine - indexMs;
  const profile = `where the time goes (medians): waiting on the COPY (the server still taking earlier batches) ${formatMs(copyMs)}, the two CREATE INDEXes ${formatMs(indexMs)}, the rest (start-up, project load, reading, checking and encoding the CSV while the server loads) ${formatMs(medians.engine - copyMs - indexMs)}; without the index builds ${Math.round(csv.rows / (loadPhaseMs / 1000)).toLocaleString('en-US')} rows/s`;
  return {
    id: 'pg-seed-load-x1',
    title: `PostgreSQL: seed load of the ${(csv.rows / 1e6).toFixed(1)}M-row history CSV through COPY (${(csv.bytes / 2 ** 20).toFixed(0)} MiB)`,
    ratioOf: "engine / floor (the server's CSV COPY into text columns, no check, no index)",
    ratio: medians.engine / medians.floor,
    measured: `${Math.round(rowsPerS).toLocaleString('en-US')} rows/s (${formatMs(medians.engine)}; floor ${formatMs(medians.floor)}), peak RSS ${rss.toFixed(0)} MiB (floor ${floorRss.toFixed(0)} MiB)`,
    target: `>= ${TARGET_ROWS_PER_S.toLocaleString('en-US')} rows/s, flat memory`,
    meets: rowsPerS >= TARGET_ROWS_PER_S,
    note: `ratio ${formatRatio(medians.engine / medians.floor)}; the engine also parses and checks the CSV, types the columns (numeric(12,2) amounts) and builds the two seed indexes, in one transaction; ${profile}; ${server}`,
  };
}
