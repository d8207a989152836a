/**
 * npm run bench [-- --scale N] [--repeats N] [--only id,id] [--curve-scales 1,10,30]:
 * every figure of issues 7 and 18, printed as it is measured, then stored in bench/results.json and
 * bench/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { backfillFigures } from './backfill-figure.js';
import { bareSqlFigures } from './bare-sql-figures.js';
import { BenchContext, DEFAULT_CURVE_SCALES } from './bench-context.js';
import { cliStartupFigures } from './cli-startup-figures.js';
import { compilePlanFigures } from './compile-plan-figures.js';
import { feedFigure } from './feed-figure.js';
import { formatRatio, type Figure } from './figure.js';
import { latenessFigure } from './lateness-figure.js';
import { describeMachine } from './machine.js';
import { nightlyFigure } from './nightly-figure.js';
import { pgFigures } from './pg-figures.js';
import { realisticProjectFigures } from './realistic-project-figures.js';
import { replayFigure } from './replay-figure.js';
import { replayYearFigure } from './replay-year-figure.js';
import { mergeResults, readResults, writeResults, type StoredFigure } from './results-store.js';
import { runOverheadFigure } from './run-overhead-figure.js';
import { scaleCurveFigures } from './scale-curve-figure.js';
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
  { id: 'realistic-project', run: realisticProjectFigures },
  { id: 'cli', run: cliStartupFigures },
  { id: 'run-overhead', run: runOverheadFigure },
  { id: 'replay', run: replayFigure },
  { id: 'generate-feed', run: feedFigure },
  // Long: it generates, seeds and builds each history of the curve in turn (x30: 36M rows).
  { id: 'scale-curve', run: scaleCurveFigures },
  // Last: it switches the engine to PostgreSQL while it runs.
  { id: 'postgres', run: pgFigures },
];

function options(): { scale: number; repeats: number; only: string[] | null; curveScales: number[] } {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '1' },
      repeats: { type: 'string', default: '5' },
      only: { type: 'string' },
      'curve-scales': { type: 'string', default: DEFAULT_CURVE_SCALES.join(',') },
    },
    strict: true,
  });
  const scale = Number(values.scale);
  const repeats = Number(values.repeats);
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`--scale must be a positive integer, got ${values.scale}`);
  if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeats must be a positive integer, got ${values.repeats}`);
  const curveScales = values['curve-scales'].split(',').map((s) => Number(s.trim()));
  if (curveScales.length < 2 || curveScales.some((s, i) => !Number.isInteger(s) || s < 1 || (i > 0 && s <= curveScales[i - 1]!))) {
    throw new Error(`--curve-scales must be two or more increasing positive integers, e.g. 1,10,30; got ${values['curve-scales']}`);
  }
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : null;
  const unknown = only?.filter((id) => !FIGURES.some((f) => f.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown figure(s) ${unknown.join(', ')}; the figures are ${FIGURES.map((f) => f.id).join(', ')}`);
  return { scale, repeats, only, curveScales };
}

function print(f: Figure): void {
  const verdict = f.meets === null ? 'report' : f.meets ? 'meets target' : 'MISSES target';
  const ratio = f.ratio === null ? '' : `  ${formatRatio(f.ratio)} = ${f.ratioOf}\n`;
  process.stdout.write(`${f.title}\n${ratio}  ${f.measured}\n  target ${f.target}: ${verdict}${f.note ? `\n  ${f.note}` : ''}\n\n`);
}

async function main(): Promise<void> {
  const { scale, repeats, only, curveScales } = options();
  const machine = describeMachine();
  process.stdout.write(`mini-dbt benchmarks, scale ${scale}, ${repeats} rounds; ${machine.nproc} cores, ${machine.cpu}, Node.js ${machine.node}, SQLite ${machine.sqlite}, load ${machine.loadAverage}\n\n`);
  const workDir = mkdtempSync(join(tmpdir(), 'mini-dbt-bench-'));
  const ctx = new BenchContext({ scale, repeats, workDir, curveScales });
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
