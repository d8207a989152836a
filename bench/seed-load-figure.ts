/**
 * Seed load throughput and peak memory: the history CSV loaded through the
 * engine, each load in a fresh child process (so its peak RSS is its own),
 * interleaved with the floor: the same file split and inserted into an
 * untyped table with no checks and no index (seed-load-child.ts). At
 * --scale 10 the 1x and 10x files are both loaded, to show memory is flat.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, notMeasured, type Figure } from './figure.js';
import { copyExample } from './history-workspace.js';
import { median, sideBySide } from './side-by-side.js';
import { spawnJson } from './spawn-node.js';

interface ChildReport {
  ms: number;
  rows: number;
  maxRssKiB: number;
}

const CHILD = join(import.meta.dirname, 'seed-load-child.js');
const TARGET_ROWS_PER_S = 300_000;
const SQLITE3 = '/usr/bin/sqlite3';

/**
 * Issue 18's floor: the sqlite3 shell's `.import` of the file into an
 * untyped table (one transaction, WAL as the engine's), then the seed's two
 * indexes. Milliseconds, spawn to exit.
 */
function sqlite3Import(csv: string, database: string): number {
  const script = [
    'pragma journal_mode = wal;',
    '.mode csv',
    `.import '${csv.replace(/'/g, "''")}' raw_orders`,
    'create index raw_orders__idx__order_date__load_date on raw_orders (order_date, load_date);',
    'create index raw_orders__idx__load_date on raw_orders (load_date);',
  ].join('\n');
  const t0 = performance.now();
  const out = spawnSync(SQLITE3, [database], { input: script, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (out.status !== 0) throw new Error(`sqlite3 .import failed: ${out.stderr}`);
  return ms;
}

export async function seedLoadFigures(ctx: BenchContext): Promise<Figure[]> {
  const scales = ctx.scale === 1 ? [1] : [1, ctx.scale];
  const figures: Figure[] = [];
  const floors: Figure[] = [];
  for (const scale of scales) {
    const csv = ctx.historyCsv(scale);
    const project = ctx.path(`seed-project-x${scale}`);
    copyExample(project);
    const database = ctx.path(`seed-x${scale}.db`);
    const fresh = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
    };
    // The engine reads the project's seeds/raw_orders.csv: point it at the generated file.
    symlinkSync(csv.path, join(project, 'seeds', 'raw_orders.csv'));
    const reports: Record<'engine' | 'floor', ChildReport[]> = { engine: [], floor: [] };
    const load = (mode: 'mini-dbt' | 'floor', key: 'engine' | 'floor') => async () => {
      fresh();
      const report = await spawnJson<ChildReport>([CHILD, mode, mode === 'floor' ? csv.path : project, database]);
      if (report.rows !== csv.rows) throw new Error(`${mode} loaded ${report.rows} rows, expected ${csv.rows}`);
      reports[key].push(report);
      return report.ms;
    };
    const repeats = scale === 1 ? ctx.repeats : Math.max(1, Math.min(ctx.repeats, 2));
    const cli = existsSync(SQLITE3) && scale === 1;
    if (scale === 1 && !cli) floors.push(notMeasured('seed-load-sqlite3-x1', "seed load / the sqlite3 shell's .import plus the same two indexes", '<= 1.3x (issue 18)', `no ${SQLITE3}: install Debian's sqlite3 package (apt-get install sqlite3)`));
    const things = { engine: load('mini-dbt', 'engine'), floor: load('floor', 'floor'), ...(cli ? { sqlite3: () => (fresh(), sqlite3Import(csv.path, database)) } : {}) };
    const { medians } = await sideBySide<string>(things, repeats, 0);
    fresh();
    if (cli) {
      const ratio = medians.engine! / medians.sqlite3!;
      floors.push({
        id: `seed-load-sqlite3-x${scale}`,
        title: `seed load of the ${(csv.rows / 1e6).toFixed(1)}M-row history CSV / the sqlite3 shell's .import of it plus the same two indexes`,
        ratioOf: 'engine / sqlite3 .import + indexes',
        ratio,
        measured: `engine ${formatMs(medians.engine!)}, sqlite3 .import + 2 indexes ${formatMs(medians.sqlite3!)}`,
        target: '<= 1.3x (issue 18)',
        meets: ratio <= 1.3,
      });
    }
    const rowsPerS = csv.rows / (medians.engine! / 1000);
    const rss = median(reports.engine.map((r) => r.maxRssKiB)) / 1024;
    const floorRss = median(reports.floor.map((r) => r.maxRssKiB)) / 1024;
    figures.push({
      id: `seed-load-x${scale}`,
      title: `seed load of the ${(csv.rows / 1e6).toFixed(1)}M-row history CSV (x${scale}, ${(csv.bytes / 2 ** 20).toFixed(0)} MiB)`,
      ratioOf: 'engine / floor (split + untyped insert, no index)',
      ratio: medians.engine! / medians.floor!,
      measured: `${Math.round(rowsPerS).toLocaleString('en-US')} rows/s (${formatMs(medians.engine!)}; floor ${formatMs(medians.floor!)}), peak RSS ${rss.toFixed(0)} MiB (floor ${floorRss.toFixed(0)} MiB)`,
      target: `>= ${TARGET_ROWS_PER_S.toLocaleString('en-US')} rows/s, flat memory`,
      meets: rowsPerS >= TARGET_ROWS_PER_S,
      note: `ratio ${formatRatio(medians.engine! / medians.floor!)}; the engine also checks types and builds the two seed indexes`,
    });
  }
  if (figures.length === 2) {
    // The rows/s target is the 1.2M-row file's; the bigger file shows that memory stays flat.
    const [one, ten] = figures as [Figure, Figure];
    const rssOf = (f: Figure) => Number(/peak RSS (\d+) MiB/.exec(f.measured)?.[1]);
    const growth = rssOf(ten) / rssOf(one);
    figures[1] = { ...ten, target: 'flat memory: peak RSS within 1.5x of the x1 load', meets: growth <= 1.5, note: `${ten.note}; peak RSS x${ctx.scale} / x1 = ${growth.toFixed(2)}` };
  }
  return [...figures, ...floors];
}
