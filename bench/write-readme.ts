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
- **Seed load**: timed phase by phase (the same 1.2M rows, one transaction): the multi-row inserts
  took about 1.0-1.5 s, the two seed indexes 0.8-1.2 s (sorting 1.2M keys twice), the COMMIT
  0.45-0.7 s (most of it SQLite's WAL checkpoint copying the new pages into the database file; the
  floor pays a smaller one, having no index pages), the column_types checks about 0.15 s. Binding the
  values of INTEGER/REAL/NUMERIC columns as numbers instead of text (SQLite converted each one) cut the
  insert time by about a quarter; it is done only where JavaScript's Number() gives exactly SQLite's
  value (at most 15 characters, never -0), which a property test checks value by value against
  SQLite's own conversion. Tried without a reliable gain on this machine: a 256 MiB page cache and
  in-memory temp store for the index sort, \`PRAGMA threads\`, creating the indexes before the inserts
  (faster only when the file is already in index order), synchronous=NORMAL, 50 to 4,000 rows per
  INSERT (200 is best).
- **Compile + plan, cold**: nunjucks compiled every model's template to JavaScript (lexer, parser,
  code generator, \`new Function\`: about 0.25 ms a template) and the compile rendered each model up
  to five times, each render building the whole dbt context (about 40 functions and objects). Now a
  template that is SQL text with \`{{ ref(...) }}\`, \`{{ config(...) }}\`, macro calls on literal
  arguments, comments and \`{% if is_incremental() %}\` blocks (every generated model, most real
  ones) is parsed by a small parser and rendered by walking it (src/compile/jinja/simple-template.ts,
  dbt's static-parser idea; anything else still goes to nunjucks, and a differential property test
  checks that both give the same output, errors and captures); the dbt context is built lazily, half
  at a time; the live plan reuses the compile's own rendering. The property yml files (0.3 s at
  10,000 models with the \`yaml\` package, which builds a document with positions) are parsed by
  js-yaml with YAML 1.2's core schema as \`yaml\` resolves it (a differential property test; files
  with tags, aliases and a few other constructs go to \`yaml\`), and positions are parsed only when
  an error message needs a line. Start-up: the project file schema moved from zod's classic API to
  zod/mini (same checks, same messages), which halved the bundle every command loads (1.45 MB to
  0.75 MB of JavaScript).
- **Parse cache, 10,000 models**: with every capture and every yml parse reused, what is left is
  reading and hashing 10,000 files (about 0.1 s), the cache file itself (2 MB of JSON), configs,
  dependencies and the graph. File paths are now built by concatenation instead of path.join and
  path.relative, folder configs are merged once per folder instead of once per model, hashes are
  one-shot, the line of each ref is found only when an error needs it, and the cache keeps the macro
  names, so a load it serves compiles no macro. Still the one figure not reliably met: 0.49-0.72 s
  across runs on this shared machine (met on quiet runs, missed on busy ones). What is left: Node.js
  start and the bundle (about 0.13 s), reading the 10,000 files (a checksum needs the bytes: about
  0.09 s), garbage collection of about 37 MB of live project data (about 0.08 s), configs (about
  0.08 s) and the graph (about 0.03 s). Reading the files as bytes instead of text saved 10-20 ms in
  a trial (not kept); reading them from a worker thread while the cache parses, or caching the
  resolved graph, would be the next steps.
- **Start-up (\`--version\`, \`ls\`)**: Node.js starts in about 0.09 s; as about 275 ES modules the
  CLI took 366 ms for \`ls\` on the example; it ships as an esbuild bundle (dist/bundle/: main.js,
  the bin, with each command in its own lazily loaded chunk; index.js, the package's API). Tried: a V8
  code cache for a CommonJS build of the CLI (what Node 22's compile cache does): \`ls\` on the example
  gained about 35 ms, \`--version\` lost about 40 ms (reading and deserializing the whole cache), and
  the 10,000-model \`ls\` did not change, so it was left out.
- **PostgreSQL** (the \`PostgreSQL:\` rows; bench/pg-figures.ts): the bench starts its own throwaway
  PostgreSQL 15 cluster (the test suite's test/support/pg-cluster.ts: initdb into a temp folder, a free
  port on 127.0.0.1, C locale, fsync, synchronous_commit and full_page_writes off, stopped and removed
  at the end), builds the same example over the same history there (a \`type: postgres\` profile) and
  measures the same ratios side by side. **The bench server's settings** (bench/pg-workspace.ts; each
  row's note prints them) are an analytic load server's, not a small shared one's: \`wal_level =
  minimal\` with \`max_wal_senders = 0\` (set at start; a server that loads and rebuilds tables and
  replicates nothing: a table created in a transaction is not written to the WAL while that transaction
  fills it, so the seed's COPY into its new staging table and the two CREATE INDEXes on it write their
  pages once instead of twice), \`work_mem = 64MB\` (a day range's and a full rebuild's sorts stay in
  memory; at 4 MB they spilled) and \`maintenance_work_mem = 256MB\` (an index build sorts in memory).
  mini-dbt sets none of them and depends on none: on a default server (the test suite's: wal_level
  replica, 4 MB work_mem) the same loads and runs are correct, the server just writes more.
  Tried and left at its default (2): \`max_parallel_maintenance_workers = 0\` (no reliable difference
  in the index builds over two interleaved trials of 4 loads each).
  **Seed**: \`COPY ... FROM STDIN\` in batches of about 4 MB into one COPY kept open (one transaction:
  staging table, COPY, the two indexes of the seed's \`indexes\` config, swap), each batch handed over
  without waiting for the server to take it, so the server loads one batch while the client reads and
  checks the next; its floor is the server's own CSV COPY of the file into text columns. The COPY is
  \`FREEZE\` (the staging table was created in the same transaction, so no other session can see it
  before COMMIT): its rows are written frozen and its pages all-visible, so the first reads set no hint
  bits and counts over the seed's indexes are index-only. Measured with bench/pg-trial.js at load 3-5:
  with wal_level minimal the two index builds took 1.0-1.7 s and the load ran at 310,000-390,000
  rows/s (the last figures before it: 2.16 s and 208,144 rows/s). What is left (this run's note): the client's reading, checking and
  encoding of the CSV (about 1.8 s, the server's COPY hidden behind it) and the two index builds
  (about 1 s).
  **Nightly**: the target is a share of the full rebuild, which got faster too (2.1 s before; 1.1-1.6 s
  now that the seed's pages are frozen and all-visible), so 2.19% is 25-35 ms. Where a nightly's time
  goes (\`MINI_DBT_PG_TRACE=1\` logs each round trip with its milliseconds; 9 nightlies at load 3-4,
  medians): connecting about 8 ms (TCP, SCRAM authentication, the backend's start; the thread and its
  driver are parked from the last connection), the model's SELECT into the staged temp table about
  18 ms, 22 other round trips about 25 ms (0.5 ms each at load 1, more than 1 ms at load 4: catalog
  reads, the ledger, the checks on the staged rows, delete, insert, commit), and about 8 ms of
  JavaScript (planning, rendering, target/ artifacts). Cut in this round, 38 round trips to 22: the
  describe probe (drop, CREATE TEMP TABLE AS ... LIMIT 0, read its columns, drop) is one LIMIT 0 query
  whose row description gives the types; a table's columns are read once per plan and its indexes only
  when a column was removed; session settings, BEGIN, advisory unlocks and the session's invocation
  tag, and the drops of the session's scratch tables (pg_temp) are posted without waiting and answered
  with the next round trip; a run with nothing to create
  reads the ledger's version unlocked instead of lock, check, read, unlock; closing no longer waits for
  the backend to exit (it drops the session's temp tables first, 2-10 ms). Not done: reusing a
  connection across runs of one process (a pool with an idle expiry would save the connect and the
  first queries' cold catalog caches, about 10 ms; sessions that outlive \`close()\` delay tests that
  copy or drop databases). Even then the SELECT and 22 round trips stay above 30 ms on this machine,
  so this figure misses its target.
  **Backfill**: the engine row's per-day part is the model's SELECT (a scan of the (order_date,
  load_date) index for the range, then the window's and the group's sorts, in memory). The
  \`mini-dbt backfill\` row's per-day part was its raw count of the range (126 ms for 54 days): the
  day-or-text expression ran a regular expression twice a row; it now tests the pattern only on texts
  longer than a day (14 ms, index-only over the frozen seed), 4.75 ms a day to 1.4. Its fixed overhead
  (about 155 ms) is four connections (preview, publish, two downstream checks) and the full reload's
  raw count (a count of all 1.2M rows: about 50 ms even index-only).
  **Noise**: three runs at load 2.7-4.3 (the last two with the final code; the table shows the last)
  gave nightly 3.55-4.75%, the engine backfill 3.97-7.42% without its fixed overhead (one run missed
  7.39% by a hair: 1.64 ms a day over a 1.19 s rebuild) and the command 4.67-6.45%. One source
  besides the machine: the seed leaves
  raw_orders without statistics (dbt's seeds do not ANALYZE), and autovacuum's ANALYZE may land during
  the figures; with statistics the planner chose parallel plans that were slower on this busy 2-core
  machine (the 54-day SELECT 76 -> 194 ms, the nightly's 9 -> 13 ms, in one trial), so neither an
  ANALYZE in the seed nor one in the bench's setup was kept.
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
