/** bench/README.md, regenerated from bench/results.json after every run. */
import { writeFileSync } from 'node:fs';
import { formatRatio } from './figure.js';
import type { Machine } from './machine.js';
import type { StoredFigure, StoredResults } from './results-store.js';

const INTRO = `# Benchmarks

\`npm run bench\` builds the project and runs every figure below; \`npm run bench -- --scale 10\`
runs them on the ten-times history (about 12 million rows); \`--only nightly,seed-load\` runs some of
them; \`--repeats N\` changes the number of measured rounds (default 5, after one warm-up round).
The benchmarks never run in \`npm test\`.

The machine is shared and noisy, so every figure is a **ratio of two things measured side by side in
the same run**: they are interleaved (the order rotates every round), repeated, and their medians
compared; the absolute numbers are medians too. Cold-process figures are spawned from the bench, and
where GNU time exists their CPU time is reported next to the wall time. This file is written by the
bench run (last results per figure and scale, with the machine they ran on); bench/results.json holds
the same data.

Workloads (generated, deterministic):

- **History**: 1,096 days from 2024-01-01, about 1,000 orders a day with the example feed's lateness
  profile (bench/history-feed.ts), about 1.2 million raw rows (x10: 10,000 orders a day), loaded as
  the example's \`raw_orders\` seed under the example's models.
- **Projects**: 1,000 and 10,000 generated models (bench/generated-project.ts): staging views over a
  seed, ref chains, fan-ins of 2 to 4 models (a third incremental), three macros every model calls,
  config() blocks, vars, folder configs and property yml files; and 200 trivial table models for the
  per-model overhead of \`run\`.
`;

function machineLine(m: Machine): string {
  return `${m.nproc} cores (nproc), ${m.cpu}, ${m.memoryGiB} GiB, ${m.platform}, Node.js ${m.node}, SQLite ${m.sqlite}; load average ${m.loadAverage.toFixed(2)} at the start`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(figures: readonly StoredFigure[]): string {
  const rows = figures.map((f) => {
    const ratio = f.ratio === null ? '-' : `${formatRatio(f.ratio)} (${f.ratioOf})`;
    const meets = f.meets === null ? 'report' : f.meets ? 'yes' : '**no**';
    const note = f.note ? ` ${f.note}.` : '';
    return `| ${cell(f.title)} | ${cell(ratio)} | ${cell(f.measured)}.${cell(note)} | ${cell(f.target)} | ${meets} |`;
  });
  return ['| figure | ratio, side by side | measured (medians) | target | meets |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function writeReadme(path: string, results: StoredResults): void {
  const parts = [INTRO, '## Last results'];
  for (const scale of [...new Set(results.figures.map((f) => f.scale))].sort((a, b) => a - b)) {
    const figures = results.figures.filter((f) => f.scale === scale);
    const dates = figures.map((f) => f.measuredAt).sort();
    const machines = [...new Set(figures.map((f) => machineLine(f.machine)))];
    parts.push(`### Scale ${scale} (\`npm run bench${scale === 1 ? '' : ` -- --scale ${scale}`}\`)`);
    parts.push(`Measured ${dates[0]?.slice(0, 16).replace('T', ' ')}${dates.length > 1 && dates.at(-1) !== dates[0] ? ` to ${dates.at(-1)?.slice(0, 16).replace('T', ' ')}` : ''} UTC on: ${machines.join('; ')}.`);
    parts.push(table(figures));
  }
  writeFileSync(path, `${parts.join('\n\n')}\n`);
}
