/**
 * `npm run generate-feed` as the range grows (issue 18): the generator must
 * write rows at a rate that does not fall with the range. Measured as the
 * command a user runs (node dist/scripts/generate-feed.js, spawned), 1 year
 * and 50 years side by side; the target is 50 years within 1.2x of 50 times
 * 1 year (start-up included on both sides, as a user pays it).
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BenchContext } from './bench-context.js';
import { formatMs, formatRatio, type Figure } from './figure.js';
import { sideBySide } from './side-by-side.js';
import { spawnNode } from './spawn-node.js';

const SCRIPT = resolve(import.meta.dirname, '../scripts/generate-feed.js');

export async function feedFigure(ctx: BenchContext): Promise<Figure> {
  const rows: Record<string, number> = {};
  const generate = (years: number) => async (): Promise<number> => {
    const out = ctx.path(`feed-${years}y.csv`);
    const run = await spawnNode([SCRIPT, '--start', '2000-01-01', '--end', `${2000 + years - 1}-12-31`, '--out', out]);
    if (run.code !== 0) throw new Error(`generate-feed (${years} years) failed: ${run.stderr}`);
    rows[years] = Number(/wrote (\d+) rows/.exec(run.stdout)?.[1] ?? Number.NaN);
    rmSync(out, { force: true });
    return run.wallMs;
  };
  const { medians } = await sideBySide({ one: generate(1), fifty: generate(50) }, Math.min(ctx.repeats, 3));
  const ratio = medians.fifty / (50 * medians.one);
  const rate = (years: number, ms: number) => `${Math.round((rows[years]! / ms) * 1000).toLocaleString('en-US')} rows/s`;
  return {
    id: 'generate-feed',
    title: '`npm run generate-feed`: 50 years of feed / 50 x 1 year',
    ratioOf: '50 years / (50 x 1 year)',
    ratio,
    measured: `1 year ${formatMs(medians.one)} (${rows[1]!.toLocaleString('en-US')} rows, ${rate(1, medians.one)}), 50 years ${formatMs(medians.fifty)} (${rows[50]!.toLocaleString('en-US')} rows, ${rate(50, medians.fifty)}); ratio ${formatRatio(ratio)}`,
    target: '<= 1.2x (linear: rows per second do not fall as the range grows)',
    meets: ratio <= 1.2,
  };
}
