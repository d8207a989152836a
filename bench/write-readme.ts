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

What was slow, what the profiles showed, and what changed (from \`node --cpu-prof\` profiles of the
same workloads):

- **\`mini-dbt backfill\` (the command, not the engine)**: it used to preview the range read-only
  (the model's SELECT once, with the key checks), publish it (the SELECT again), and count the raw
  rows the range and a full reload read with expressions no index serves (two scans of the 1.2M-row
  raw table: 0.23 s of fixed overhead). Now a single range is checked on the staged rows inside the
  publish (key not null and unique, every partition in the range: a failure rolls the one
  transaction back), so the SELECT runs once, and the raw counts seek the raw table's event-date and
  loaded-at indexes. Several ranges (\`--stale\`) are still all checked read-only first, so a range
  that would fail stops the backfill before any range is published.
- **Seed load**: about 300,000 rows/s on a quiet run of this machine, under it when neighbours are
  busy. The floor (split and insert, no checks, no index) is 1.5-2x faster; timed phase by phase
  (the same 1.2M rows, one transaction): the multi-row inserts take about 1.0 s, the two seed indexes
  0.8-1.2 s (sorting 1.2M keys twice), and the COMMIT 0.45-0.7 s, most of it SQLite's WAL checkpoint
  copying the new pages into the database file (the floor pays a smaller one: no index pages). The
  column_types checks cost about 0.15 s. Tried without a reliable gain on this machine: a 256 MiB page
  cache and in-memory temp store for the index sort, \`PRAGMA threads\`, creating the indexes before
  the inserts (faster only when the file is already in index order), synchronous=NORMAL.
- **Compile + plan, cold**: nunjucks compiled every model's template to JavaScript (lexer, parser,
  code generator, \`new Function\`: about 0.25 ms a template) and the compile rendered each model up
  to five times, each render building the whole dbt context (about 40 functions and objects). Now a
  template that is SQL text with \`{{ ref(...) }}\`, \`{{ config(...) }}\`, macro calls on literal
  arguments, comments and \`{% if is_incremental() %}\` blocks (every generated model, most real
  ones) is parsed by a small parser and rendered by walking it (src/compile/jinja/simple-template.ts,
  dbt's static-parser idea; anything else still goes to nunjucks, and a differential property test
  checks that both give the same output, errors and captures); the dbt context is built lazily, half
  at a time; the live plan reuses the compile's own rendering. What is left for 1,000 models: Node.js
  start and the 1.3 MB bundle (about 0.16 s), YAML parsing of the property files (about 0.05 s), and
  rendering and planning.
- **Parse cache, 10,000 models**: with every capture and every yml parse reused, what is left is
  reading and hashing 10,000 files (about 0.1 s), the cache file itself (2 MB of JSON), configs,
  dependencies and the graph. File paths are now built by concatenation instead of path.join and
  path.relative, folder configs are merged once per folder instead of once per model, and the line of
  each ref is found only when an error needs it.
- **\`ls\` on the example**: Node.js starts in about 0.1 s; as about 275 ES modules (zod 94,
  yaml 72, nunjucks and the Jinja extensions, the tool's own) the CLI took 366 ms; it now ships as an
  esbuild bundle (dist/bundle/, the package's bin), which loads a few files: 237 ms.
`;

function machineLine(m: Machine): string {
  return `${m.nproc} cores (nproc), ${m.cpu}, ${m.memoryGiB} GiB, ${m.platform}, Node.js ${m.node}, SQLite ${m.sqlite}`;
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
    const loads = [...new Set(figures.map((f) => f.machine.loadAverage))].sort((a, b) => a - b);
    const when = (iso: string | undefined) => iso?.slice(0, 16).replace('T', ' ');
    const span = dates.length > 1 && when(dates.at(-1)) !== when(dates[0]) ? ` to ${when(dates.at(-1))}` : '';
    const load = loads.length > 1 ? `${loads[0]!.toFixed(2)} to ${loads.at(-1)!.toFixed(2)}` : (loads[0] ?? 0).toFixed(2);
    parts.push(`Measured ${when(dates[0])}${span} UTC on ${machines.join('; ')}; 1-minute load average when the runs started: ${load}.`);
    parts.push(table(figures));
  }
  writeFileSync(path, `${parts.join('\n\n')}\n`);
}
