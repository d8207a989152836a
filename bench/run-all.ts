/**
 * npm run bench [-- --scale N] [--repeats N] [--only id,id]: every figure of
 * issue 7, printed as it is measured, then stored in bench/results.json and
 * bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backfillFigures } from './backfill-figure.js';
import { bareSqlFigures } from './bare-sql-figures.js';
import { BenchContext } from './bench-context.js';
import { cliStartupFigures } from './cli-startup-figures.js';
import { compilePlanFigures } from './compile-plan-figures.js';
import { feedFigure } from './feed-figure.js';
import { formatRatio, type Figure } from './figure.js';
import { latenessFigure } from './lateness-figure.js';
import { describeMachine } from './machine.js';
import { nightlyFigure } from './nightly-figure.js';
import { pgFigures } from './pg-figures.js';
import { replayFigure } from './replay-figure.js';
import { replayYearFigure } from './replay-year-figure.js';
import { mergeResults, readResults, writeResults, type StoredFigure } from './results-store.js';
import { runOverheadFigure } from './run-overhead-figure.js';
import { seedLoadFigures } from './seed-load-figure.js';
import { staleFigures } from './stale-figures.js';
import { writeReadme } from './write-readme.js';

const BENCH_DIR = resolve(import.meta.dirname, '../../bench');

/** In run order: the history figures share one seeded workspace. */
const FIGURES: readonly { id: string; run: (ctx: BenchContext) => Promise<Figure | Figure[]> }[] = [
  { id: 'nightly', run: nightlyFigure },
  { id: 'backfill', run: backfillFigures },
  { id: 'stale', run: staleFigures },
  { id: 'floors', run: bareSqlFigures },
  { id: 'lateness', run: latenessFigure },
  { id: 'replay-year', run: replayYearFigure },
  { id: 'seed-load', run: seedLoadFigures },
  { id: 'compile-plan', run: compilePlanFigures },
  { id: 'cli', run: cliStartupFigures },
  { id: 'run-overhead', run: runOverheadFigure },
  { id: 'replay', run: replayFigure },
  { id: 'generate-feed', run: feedFigure },
  // Last: it switches the engine to PostgreSQL while it runs.
  { id: 'postgres', run: pgFigures },
];

function options(): { scale: number; repeats: number; only: string[] | null } {
  const { values } = parseArgs({
    options: { scale: { type: 'string', default: '1' }, repeats: { type: 'string', default: '5' }, only: { type: 'string' } },
    strict: true,
  });
  const scale = Number(values.scale);
  const repeats = Number(values.repeats);
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`--scale must be a positive integer, got ${values.scale}`);
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeats must be a positive integer, got ${values.repeats}`);
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : null;
  const unknown = only?.filter((id) => !FIGURES.some((f) => f.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown figure(s) ${unknown.join(', ')}; the figures are ${FIGURES.map((f) => f.id).join(', ')}`);
  return { scale, repeats, only };
}

function print(f: Figure): void {
  const verdict = f.meets === null ? 'report' : f.meets ? 'meets target' : 'MISSES target';
  const ratio = f.ratio === null ? '' : `  ${formatRatio(f.ratio)} = ${f.ratioOf}\n`;
  process.stdout.write(`${f.title}\n${ratio}  ${f.measured}\n  target ${f.target}: ${verdict}${f.note ? `\n  ${f.note}` : ''}\n\n`);
}

async function main(): Promise<void> {
  const { scale, repeats, only } = options();
  const machine = describeMachine();
  process.stdout.write(`mini-dbt benchmarks, scale ${scale}, ${repeats} rounds; ${machine.nproc} cores, ${machine.cpu}, Node.js ${machine.node}, SQLite ${machine.sqlite}, load ${machine.loadAverage}\n\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'mini-dbt-bench-'));
  const ctx = new BenchContext({ scale, repeats, workDir });
  const measured: StoredFigure[] = [];
  try {
    for (const figure of FIGURES) {
      if (only && !only.includes(figure.id)) continue;
      process.stderr.write(`[${figure.id}]\n`);
      const t0 = performance.now();
      const out = await figure.run(ctx);
      for (const [rank, f] of (Array.isArray(out) ? out : [out]).entries()) {
        print(f);
        measured.push({ ...f, group: figure.id, rank, scale, measuredAt: new Date().toISOString(), machine });
      }
      process.stderr.write(`  (${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  const resultsPath = join(BENCH_DIR, 'results.json');
  const results = mergeResults(readResults(resultsPath), measured, FIGURES.map((f) => f.id));
  writeResults(resultsPath, results);
  writeReadme(join(BENCH_DIR, 'README.md'), results);
  process.stdout.write(`results written to bench/README.md and bench/results.json\n`);
}

await main();
