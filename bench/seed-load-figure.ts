/**
 * Seed load throughput and peak memory: the history CSV loaded through the
 * engine, each load in a fresh child process (so its peak RSS is its own),
 * interleaved with the floor: the same file split and inserted into an
 * untyped table with no checks and no index (seed-load-child.ts). At
 * --scale 10 the 1x and 10x files are both loaded, to show memory is flat.
 */
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
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

export async function seedLoadFigures(ctx: BenchContext): Promise<Figure[]> {
  const scales = ctx.scale === 1 ? [1] : [1, ctx.scale];
  const figures: Figure[] = [];
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
    const { medians } = await sideBySide({ engine: load('mini-dbt', 'engine'), floor: load('floor', 'floor') }, repeats, 0);
    fresh();
    const rowsPerS = csv.rows / (medians.engine / 1000);
    const rss = median(reports.engine.map((r) => r.maxRssKiB)) / 1024;
    const floorRss = median(reports.floor.map((r) => r.maxRssKiB)) / 1024;
    figures.push({
      id: `seed-load-x${scale}`,
      title: `seed load of the ${(csv.rows / 1e6).toFixed(1)}M-row history CSV (x${scale}, ${(csv.bytes / 2 ** 20).toFixed(0)} MiB)`,
      ratioOf: 'engine / floor (split + untyped insert, no index)',
      ratio: medians.engine / medians.floor,
      measured: `${Math.round(rowsPerS).toLocaleString('en-US')} rows/s (${formatMs(medians.engine)}; floor ${formatMs(medians.floor)}), peak RSS ${rss.toFixed(0)} MiB (floor ${floorRss.toFixed(0)} MiB)`,
      target: `>= ${TARGET_ROWS_PER_S.toLocaleString('en-US')} rows/s, flat memory`,
      meets: rowsPerS >= TARGET_ROWS_PER_S,
      note: `ratio ${formatRatio(medians.engine / medians.floor)}; the engine also checks types and builds the two seed indexes`,
    });
  }
  if (figures.length === 2) {
    // The rows/s target is the 1.2M-row file's; the bigger file shows that memory stays flat.
    const [one, ten] = figures as [Figure, Figure];
    const rssOf = (f: Figure) => Number(/peak RSS (\d+) MiB/.exec(f.measured)?.[1]);
    const growth = rssOf(ten) / rssOf(one);
    figures[1] = { ...ten, target: 'flat memory: peak RSS within 1.5x of the x1 load', meets: growth <= 1.5, note: `${ten.note}; peak RSS x${ctx.scale} / x1 = ${growth.toFixed(2)}` };
  }
  return figures;
}
