/**
 * The Brightcart example project over a generated three-year history: the
 * example's project file, models, macros and seed properties, with the
 * generated CSV as seeds/raw_orders.csv, seeded and fully built once. The
 * history figures (nightly, backfill, stale) share it.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadSession, run, type RunResult, type Session } from '../src/index.js';
import { writeHistory, type HistoryFile } from './history-feed.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const HISTORY_START = '2024-01-01';
export const HISTORY_DAYS = 1096;
export const ORDERS_PER_DAY = 1000;

export interface HistoryWorkspace {
  readonly dir: string;
  readonly history: HistoryFile;
  readonly session: Session;
  /** The first seed load and full build, for the log. */
  readonly setupMs: number;
}

/** Copy the example project (without its CSV) into `dir`. */
export function copyExample(dir: string): void {
  mkdirSync(join(dir, 'seeds'), { recursive: true });
  for (const entry of ['project.yml', 'models', 'macros', 'seeds/raw_orders.yml']) {
    cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true });
  }
}

/** Write the history CSV for a scale (1 = about 1.2 million rows) to `path`. */
export function historyCsv(path: string, scale: number): HistoryFile {
  return writeHistory({ path, start: HISTORY_START, days: HISTORY_DAYS, ordersPerDay: ORDERS_PER_DAY * scale });
}

export function mustSucceed(result: RunResult, what: string): RunResult {
  const failed = result.results.find((r) => r.status === 'error' || r.status === 'fail' || r.status === 'skipped');
  if (result.exitCode !== 0 || failed) throw new Error(`${what} failed: ${failed?.name ?? ''} ${failed?.message ?? ''}`);
  return result;
}

export async function createHistoryWorkspace(dir: string, scale: number): Promise<HistoryWorkspace> {
  copyExample(dir);
  const history = historyCsv(join(dir, 'seeds', 'raw_orders.csv'), scale);
  const session = loadSession({ projectDir: dir });
  const t0 = performance.now();
  mustSucceed(await run({ session, command: 'build' }), 'seeding and building the history');
  return { dir, history, session, setupMs: performance.now() - t0 };
}
