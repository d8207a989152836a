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
  INSERT (200 is best). Since seed booleans, dates and timestamps are stored on SQLite as dbt-sqlite
  stores them (1/0; dates and times in Python's form), those values are checked on every row; the
  history CSV declares all its columns in column_types, so the figure does not run that code (in
  process: 614 against 615 ms of CPU, medians); with its two date columns left undeclared a load
  costs about 4% more CPU (each column remembers the last date it accepted; 18-20% before that).
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
- **Parse cache, 10,000 models** (\`ls\` on the unchanged project): with every capture and yml parse
  reused, \`ls\` still read and hashed 10,000 files, merged configs and built the graph (1.31 s at load
  3-4). It now reads the project's graph back from target/graph_cache.json when none of its inputs
  changed (src/parse/graph-cache.ts): the files are stat'ed, not read (every file and folder under the
  resource paths and the packages: size, modification and change times, inode, each folder's entries,
  hashed into one digest; the project, package and profiles files, present or not), and the other inputs
  are hashed into a key (--vars, the profile flags, the current directory, HOME and the DBT_ variables,
  the variables templates read with env_var(), the tool's build). A load keeps its graph only if every
  input was at least 2 s old when it began: a file rewritten within one timestamp tick at the same size
  would otherwise look unchanged (git's "racy" entries; dbt's partial parse has the same question). The
  change time is stamped too, which tools that put a modification time back (touch -d, tar, rsync -t)
  cannot set. Where the time goes now (load 3.5, timed inside the process): Node.js start, the bundle and
  its modules 110 ms (bare node about 40 ms), stat'ing the 10,040 files 45-50 ms, reading and parsing
  the 2.5 MB cache 20 ms, turning it into graph nodes 17 ms, the graph and its order 30 ms, selecting
  and printing 12-27 ms: 376-419 ms wall at load 3-7 (see the next paragraph for what answers it now).
  The cold compile of 10,000 models (1.3-3.0 s) is spent in garbage
  collection (21% of a profile), rendering pass 1 (19%), pass 2 and planning (15%), loading the project
  (12.5%), filling the parse cache (8%): 0.6 s is out of reach this way.
- **Compile + plan, cold, phase by phase** (issue 18's 0.6 s): the child times the compile call's
  phases from the API's \`onPhase\` (load, capture, parse cache, graph, each model's render and plan;
  the library reads no clock) and sums the collector's pauses with a PerformanceObserver for 'gc';
  the 10,000-model rows print the medians. At load 0.9 the generated project's 804 ms call went: load
  132 ms (listing, reading the 10,000 files, yml), capture (pass 1) 358 ms, parse cache 42 ms, graph
  29 ms, render (pass 2) 164 ms, plan 73 ms; 147 ms of it were collector pauses (36 scavenges) inside
  those phases, and Node's start and the bundle add 70-90 ms. Since the last pass: pass 1 no longer
  renders a template of the simple subset whose every call is provably harmless
  (src/compile/jinja/static-capture.ts, dbt's static parser): ref, source, config, var and
  is_incremental on literal arguments, and root macros made only of text, their parameters, \`this\`,
  \`var()\` and upper/lower of a text parameter (src/compile/jinja/inert-macros.ts); anything else, or
  any call that could raise, is rendered as before, so errors and their lines stay the render's (a
  differential test compares both ways on 3,000 random templates and every fixture and bench
  project). A load lists each folder once (the model folders were walked four times), the parse cache
  copies captures without structuredClone and runs its modules.* pattern only over texts naming it,
  and a model without a \`;\` is not scanned for a second statement. Side by side with the build
  before: the capture 40-75 ms and the load 10-20 ms faster, of which pass 2 gives 20-35 ms back (the
  render code pass 1 used to warm up now runs cold): 3-5% on the generated project, nothing
  measurable on the realistic one (its templates use set and for and go to nunjucks), 7% on \`ls\`
  without caches. Why 0.6 s stays out of reach this way: the work is some thirty steps per model, none
  above a tenth of the call, most of it running before V8 optimizes it (parsing the 10,000 templates
  takes 120-190 ms as a fresh process's first pass and about 25 ms on a second one), and the
  collector's cost is what survives, not how often it runs (a 64 MB young generation takes the
  scavenges from 33 to 20 at the same total): every model's nodes, templates and SQL are kept to the
  end. Worker threads, measured (the generated 10,000 models, load 2.4, /tmp scripts): reading the
  10,040 files synchronously takes 63-76 ms; in a worker thread, its start and sending the texts back
  included, 101-132 ms; through libuv's thread pool (fs.promises, one promise a file) 730-850 ms; a
  worker that only loads the bundle takes 83-104 ms before it can do anything. So a second thread
  could at best overlap the file reads with the bundle's load (about 60 ms) and take half of passes 1
  and 2 (about 250 ms of the call), paying its own start, the project's load and the Jinja
  environment again (about 200 ms) and the copy of its captures back: about 0.75 s on this 2-core
  machine, not 0.6 s. A CPU profile of the whole cold process (load 2.5, 1.29 s): the collector 242 ms
  (19%), reading the files 101 ms, compiling the bundle's modules 51 ms, then the thirty steps
  (capture, mergeConfigs, the template lexer and parser, planning), none above 5%: Node's start, the
  bundle, the reads and the collector alone are 0.3-0.45 s before any template is parsed.
- **\`ls\` on an unchanged project, answered by the bin**: with the graph cache, \`ls\` on the 10,000
  models still loaded the 2.9 MB CLI bundle, read and decoded the 2.5 MB graph, built the graph and its
  order and printed: 278 ms, 9.7x bare node. Now an \`ls\` whose graph the graph cache served or kept,
  and which printed nothing but its listing, keeps its output in target/ls_answer.txt, and the bin
  (src/cli/cli-loader.ts, src/parse/ls-answer-cache.ts) answers the same \`ls\` again before loading
  anything else when all of these match: the command line word for word, the current directory, the
  tool's build, HOME, the DBT_ and MINI_DBT_ variables and the variables templates read (hashed into a
  key by a small JavaScript hash: loading node:crypto costs 4-5 ms); the graph cache file it came from;
  and the stamp of the inputs, equal number for number to the one the CLI took with fs.statSync.
  Anything else is a miss and the CLI loads as before. What is left is the stamp, 10,043 stats and 43
  folder listings (without it the same bin takes 43 ms). Through fs.statSync it took 45-70 ms, more than
  half of it building Stats objects (18 fields, four Dates); the bin reads the same numbers from Node's
  fs binding, the call fs.statSync makes (18 ms for the 10,000 files). That binding is internal: it is
  checked against fs.statSync on one path first, and since the kept stamp always comes from
  fs.statSync, a wrong reading can only miss. The bin also stats each folder's entries by name from
  inside the folder (a chdir, put back after; about a sixth of the walk). The bin is a CommonJS file
  (dist/bundle/main.cjs): Node starts no ES module loader for it (about 10 ms of CPU) and builds no ES
  module facade of each Node module it requires (3-4 ms). At load 2: 61 ms wall, CPU 50 ms, against bare
  node's 25 ms (2.40x); the realistic 10,000 models 65 ms (2.68x). Not done: stat'ing from a worker
  thread (about 25 ms to start one, and the second core is busy here).
- **Start-up (\`--version\`, \`ls\`)**: Node.js starts in about 0.09 s; as about 275 ES modules the
  CLI took 366 ms for \`ls\` on the example; it ships as an esbuild bundle (dist/bundle/: main.cjs,
  the bin, with each command in its own lazily loaded chunk; index.js, the package's API). Tried: a V8
  code cache for a CommonJS build of the CLI (what Node 22's compile cache does): \`ls\` on the example
  gained about 35 ms, \`--version\` lost about 40 ms (reading and deserializing the whole cache), and
  the 10,000-model \`ls\` did not change, so it was left out.
- **Nightly and backfill against their bare SQL** (the \`floors\` rows): profiled in process (\`node
  --cpu-prof\`, 60 nightlies and 20 backfills on the 3-year history). The nightly's SQL was at its
  floor already; the gap was about 7 ms of work around it, spread thin. Gone: capturing the model again
  under the same \`--vars\` at every run of one process (about 1 ms, and its definition fingerprint's
  render); serialising manifest.json's nodes at every run (now once per manifest: only its metadata is
  serialised per run, and the file is still written at every run, as dbt writes it); replacing
  artifacts by renaming over the old file, which makes ext4 (auto_da_alloc) start writing the new file
  out before the rename returns (0.26 ms at the median, 2-7 ms at the tail; the old file is now moved
  aside first); reading /proc for the run owner at every run; parsing the yml again for line numbers
  in the unused-vars check. The backfill's two raw-row counts were 28 ms of its gap: the range's inner
  days are now counted by the index alone (\`date()\` runs only on the edge days), and the warehouse is
  read through a memory map (\`PRAGMA mmap_size\`, 1 GiB of address space): a count over the 1.2M-row
  table copied its 4,000 index pages into a fresh connection's 2 MB page cache at every count (13 ms;
  mapped: 0.2-5 ms). The bare side now opens and closes its own connection as a run does (under 0.5 ms
  of difference), and each figure prints its fastest rounds' ratio next to the medians' (load only
  adds time). What is left in the nightly, about 4-5 ms over 11 ms of SQL, is work a run does:
  rendering the model (0.6 ms), the schema-change reads (0.4 ms), the ledger's four writes (about
  1.2 ms, half of it kysely compiling queries), opening and closing the connection (about 1 ms: WAL and
  shared memory set up at the first read), the key checks and the partition list on the staged rows
  (0.5 ms), and target/ (0.6 ms). Since: the ledger's queries are compiled by kysely once per shape
  (src/state/compiled-once.ts; the first compile checks the order of the values, so a wrong key can only
  cost the cache), a session keeps its last four --vars answers (a process alternating nightly runs and
  backfills captured the model again at every switch: 1.47x -> 1.40x in process), artifact writes make
  their folder only when it is missing and remove the old file with one unlink, and a backfill reads,
  runs and reads again on one connection (two opens and two closes fewer: 1.48x -> 1.36x). Measured with
  every statement timed (better-sqlite3 wrapped in a test script), the nightly's own SQL is within 1-2 ms
  of the bare side's; what is left is about 3.5 ms: closing the connection checkpoints the pages the
  ledger rows touched (the runs row and its key index, the node run and its index, the partitions and
  their two indexes, the autoincrement counter: 12-25 pages against the bare side's 2, 0.3-0.8 ms more),
  the first write of a connection creating the WAL (paid by both sides, in different statements), the
  plan's probe of the SELECT's columns (a LIMIT 0 copy into a temp table, 0.25 ms: better-sqlite3's
  column list has no type for expressions, which on_schema_change compares), the render (0.3 ms), and
  target/ (0.45 ms: run_results.json and manifest.json, as dbt writes them every run). At load 0.8 the
  nightly is 1.33x its bare SQL (14 ms against 10 ms), 1.25% of the full rebuild: both just short.
  Closing under 1.3x would take dropping ledger writes or the artifacts, or keeping the connection (and
  its WAL) open across runs, where a copy of the .db file alone would then miss the last runs: not done.
- **Nightly floor, where the rest goes** (bench/nightly-breakdown.ts; the floors row prints it every
  run): extra rounds time every better-sqlite3 call of a nightly and sort them by what they touch, the
  nightly and the bare side each run first and second after the bare full CTAS. At load 1.1 a traced
  nightly of 13.3 ms was: the model's SQL 9.4 ms (the bare side's own), JavaScript 1.6-1.7 ms
  (selection, render 0.2-0.3, plan, events and results, ledger records; the bare side's under 0.1),
  writing target/ about 1 ms (0.45-2.4 ms across runs), open and close 0.3-0.5 ms (bare 0.2), the
  ledger 0.3 ms (migration check, runs row, node run, 12 partitions, finish), the column probe 0.2 ms,
  planning reads 0.2 ms, checks of the staged rows 0.04 ms. target/ is almost all file creation: each
  artifact goes through a new temporary file (renamed over the old one), and creating it took
  0.27-0.42 ms in the bench's rounds against 0.02 ms for the text. Creating those files ahead in the
  file system's thread pool brought target/ to 0.45 ms, but the JavaScript part rose as much (dispatch,
  a turn of the event loop, the kernel's work on the same two cores): 1.33-1.37x with it and 1.35-1.37x
  without over three runs each, so it was taken out again. The ledger's 12-25 pages of earlier profiles
  came from rewriting the same 12 days hundreds of times (the partitions index spread over ~18 leaf
  pages); a fresh nightly writes 11 WAL frames against the bare side's 2, and in the bench (which holds
  a connection) its close checkpoints nothing; from the CLI it does (0.3-1.6 ms more than bare). A
  nightly right after a nightly is 10.0 ms, 1.15x its bare SQL; the timed one usually follows the 1 s
  bare CTAS. Reaching 1.1% (11.5 ms against a 1.05 s rebuild) would take about 1.8 ms off: all of
  target/ and half the JavaScript, which means dropping artifacts dbt writes every run.
- **The floors' order** (bench/side-by-side.ts, pairedSideBySide): the floors figure used to rotate one
  list of eight measured things (full rebuild, bare CTAS, nightly, bare nightly, backfill, bare
  backfill, the two held-connection variants), one place per round. With that list the nightly ran
  right after a 1 s scan of the whole history (the full rebuild or the bare CTAS) in every round, and
  the bare nightly right after the nightly, in every round: the nightly paid for the cold caches and
  its floor never did (the traced rounds showed it: either side is 0.2-1.2 ms slower when it follows
  the scan). Now each engine/bare pair runs as a block, in one order in even rounds and the other in
  odd ones (an even number of rounds), so each side follows the scan as often as it follows its
  partner. Same build, same history, load 0.1-1: the nightly went from 1.36x to 1.22-1.26x its bare
  SQL (11.4 ms against 9.0-9.3 ms); the backfill 1.26-1.27x. The 1.1% half of the nightly's target
  still misses (1.16-1.18%): the bare SQL alone is 0.93-0.96% of the full rebuild, so 1.1% means
  within 1.14-1.18x of the bare side, about 0.6 ms less than now; what is left over the bare side
  (the traced parts above) is the artifacts dbt writes every run (0.45-0.6 ms), JavaScript (1.2 ms:
  selection, render, plan, events, ledger records), the ledger's rows (0.2 ms), the column probe
  (0.2 ms) and the planning reads (0.15 ms), each of which a run needs. Since then every statement a run
  sends carries dbt's default query comment (\`/* {"app": "dbt", ...} */\`, as dbt sends it): side by side
  in one process, 200 nightlies each way, 11.97 ms with it and 11.70 ms with \`query-comment: null\`; the
  last run of the floors (load 1) read 1.23x and 1.12% with it.
- **A regression caught by these figures**: the model contracts' load-time check read each model's yml
  line eagerly, which parses every property file again with positions (the lazy lookup the compile
  paragraph above describes): the realistic 1,000 models' capture went from about 170 to 400 ms and the
  10,000's compile call from 1.7 to 2.7 s. The line is now read only for the error that prints it.
- **\`replay\` of a year with \`--candidates\`**: each night rebuilt every candidate partition again (the
  days a lookback of 3 leaves stale pile up to 371, plus the days the live ledger had written ahead of
  the replayed night), and each day that went stale looked up the previous version of each of its late
  rows by order id with a scan of the 1.2M-row raw table (about 40 ms each: 17 of the 25 s of a
  60-night profile). Now each night starts from the previous night's verdicts
  (src/analysis/carried-verdicts.ts): under \`--candidates\`' own trust a partition's rebuild changes only
  when a raw row for its day lands, and its live rows only when a run writes it, so only the candidates
  among the days with a landing since the last check (one range of the loaded-at index) or a ledger
  write are rebuilt (about 7.5 days a night on this feed), the others keep their verdict, and the final
  check does the same; a changed definition, an as-of going back or a write the ledger cannot place
  falls back to the whole check. The replay also makes an index on the raw table's id column in its
  scratch copy the first time a day goes stale, so those look-ups seek. 69x became 2.00x (10.6 s
  against 5.31 s, CPU 2.15x, at load 1; under heavy disk load from other work both sides wait and the
  wall ratio looked better than it is). What is left is
  mostly the exact check's own floor: rebuilding each night, with the model's own SQL, the days late
  rows landed for (2.8 s of CPU over the year, about 1.6x on its own), then the scratch copy (0.45 s)
  and the index (0.3 s). Since: the per-night check reads no totals or partition count it does not use,
  prepares its landings query once, and sizes the table without a scan of it (14.4 to 12.8 ms of CPU a
  night, side by side), and the days that went stale are explained after the last night from one scan
  of the raw rows (0.2 s) instead of the index on order_id (0.4-0.6 s). What is left is the check's own
  floor, which the figure now measures in the same rounds: an exact check with a black-box model must
  rebuild, with the model's SQL, every day a row landed for since the night before outside the night's
  window (7.5 days a night on this feed, 2,747 over the year, against the run's 4), so the bench runs
  exactly those SELECTs bare (the model's range SQL as compile renders it, one per run of consecutive
  days, into a temp table): 2.06 s, 83% of the 365 runs alone (2.48 s), at load 0.4. Runs alone + bare
  checks is 1.83x the runs alone: the 1.5x target is below what an exact check every night can do on a
  feed this late; the replay sits at 1.34x of that floor (the rest: the scratch copy of the 120 MB
  warehouse, 0.31 s; the lateness and landings reads, 0.19 s; and about 1 ms a night of ledger and
  landings queries and the comparison). With the nightly figure's lookback of 11, measured in the same
  rounds, the window covers nearly all late rows, the check has little to rebuild, and the replay is
  1.14x the runs alone (CPU 1.13x). The figure prints the CPU ratio too and must meet the
  target in CPU time: under load the runs alone waited much longer than they computed (9.9 s wall for
  4.3 s CPU), and the wall ratio read 1.10x while the CPU ratio was 2.01x. Over four runs at load 2.3-6
  the CPU ratio was 1.60x-2.25x.
- **Scale curve** (bench/scale-curve-figure.ts, \`--curve-scales\`, default 1,10,30): the history grows
  in length, not in density: the same 1,000 orders a day ending on 2026-12-31, from 2024 (x1, 1.2M
  rows), 1996 (x10, 12M rows) or 1936 (x30, 36M rows). Each history is generated (streamed), seeded,
  built, measured and deleted, and the x1 history is measured in the same rounds, so every growth
  figure is side by side. The nightly and the engine's backfill stay flat (1.05x and 1.02x per 10x of
  history): their SELECT seeks the (order_date, load_date) index for its days. The \`backfill\` command
  grows 1.5x per 10x: its raw count of a full reload reads every raw row. \`stale --candidates\` grew
  2.7x per 10x: three of its queries walked the whole history (the distinct event days of raw_orders,
  one index seek per day; the ledger's last write of every partition; the definition hash of each: 49,
  45 and 23 ms at x10). Its candidates now come from what happened since the model's last successful
  full build (src/analysis/candidates-since-full-build.ts). A full build writes every day from the rows
  landed by its as-of, the days it produced no row for included, so a day's last write is the last one
  the ledger recorded since, else the build's. A day is a candidate when a raw row for it landed between
  that write's as-of and the as-of asked about (either way round), or when its last write ran under
  another definition. That reads the ledger's rows since the build (an index by run, ledger migration 4)
  and one range of the loaded-at index: 34,000 rows for the 31 nights here, about 7 ms at every scale.
  Where this cannot stand for the walk (no full build under the current definition, a run since that is
  neither incremental nor a backfill, a partition or event time that is not a day), the walk is used as
  before. 2.74x per 10x became 1.20x (x10 68 ms against x1 57 ms in the same rounds, CPU 1.14x, load
  2.3-2.5), with the same 38 stale partitions as the full comparison. Still linear: the live table's
  distinct partitions for the count of partitions checked (0.5 ms at x1, 6 ms at x10). The full rebuild is linear (11x per 10x; x30: 36 s). Measured side by side at x1,
  x10 and x30 (\`--curve-scales 1,10,30\`, 21:06-21:13 at load 1): the nightly 1.05x and the engine's
  backfill 1.09x from x1 to x30, \`stale --candidates\` 1.45x (1.29x per 10x: the count of the live
  table's partitions), the \`backfill\` command 3.27x (its full-reload raw count).
- **Realistic project** (bench/realistic-project.ts): 10,000 models whose templates use \`{% set %}\`
  lists and dicts, \`{% for %}\` loops with refs inside, macros with keyword arguments and defaults,
  \`config()\` with conditional expressions, \`var()\` with defaults, \`is_incremental()\` blocks, nested
  folder configs and tags, a custom generic test and a yml entry (with data tests) for every model
  (\`mini-dbt build\` passes all 2,092 nodes of the 1,000-model version). First measured at 31.9 s cold
  for 10,000 models against 1.21 s for the generated project; a CPU profile put 40% of it in one
  quadratic step: each model's audit tests were found by filtering every test of the project (10,000
  models x 11,000 tests), now an index made once per manifest (11.1 s after it, at load 1). Then the
  models all left the fast path, and nunjucks compiled each on its own: lexer, parser, transformer, code
  generator, \`new Function\`, then V8 compiling and first-running each template's functions cold (a
  profile at 11 s: garbage collection 1.5 s, \`Template._compile\` and \`render\` self time about 1 s each,
  the generated code's first runs 0.7 s, lexing to code generation about 2 s). Each template was
  compiled once, but models written alike differ only in their constants. Now
  (src/compile/jinja/shared-template-code.ts) a template's literals, texts and node positions are
  parameters of its code (\`__L[k]\`), found by three keys: its skeleton (template-skeleton.ts: texts,
  string contents and comments masked; a known skeleton is not parsed, the template's values go into the
  skeleton tree's slots and its positions are shifted), its parsed shape (no transform or code
  generation) and its code (no \`new Function\`). The 10,000 models have 8 distinct compiled functions.
  The compile is watched: a compiler reading a parameterised literal keeps that code to its template, and
  a skeleton whose tree shows the scan and the lexer disagree is not used. A differential property test
  renders random template families and the bench's realistic models both ways, and the 10,000 models'
  compiled SQL is byte-identical to before. A project of all-different templates stops sharing after 256
  (11.6 s against 11.9 s for 10,000 distinct models). 11.1 s became 2.85 s (CPU 13.7 s to 4.1 s, peak
  memory 510 MB to 385 MB). Next: each generic test's yml line, read at capture though only error
  messages use it, parsed every property file again with positions (22%, about 1.1 s side by side); it
  is now looked up when asked (TestNode.lineOf), and 1,000 realistic models went from 0.68 s to 0.48 s.
  What is left at 10,000: garbage collection, the two render passes (about 0.7 s), loading the project
  (0.38 s), the templates themselves (0.26 s), plan and graph (0.33 s): the render passes and garbage
  collection alone exceed 0.6 s, so that target is out of reach in one process on this machine. At
  1,000 realistic models no single hot spot was left (about 450 ms sampled: GC about 60 ms, the capture
  pass 180 ms, yml 35 ms, compiling the ES module bundle 32 ms; about 140 MB allocated). Four changes cut
  per-model work and garbage: macro calls bind keywords without building a dict per call, the skeleton
  scan copies only what lies between masked ranges, a model's config is merged for hooks only when it
  sets one, and nunjucks' Frame.set no longer splits every name at its dots. Side by side over 30
  rounds at load 0.9-1.5: 363 to 333 ms inside the compile call, CPU 660 to 610 ms (the figure: 429 ms
  wall).
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
  **Nightly**: the target is a share of the full rebuild (1.3-1.9 s here, so 2.19% is 28-42 ms), and
  the nightly's own work is small (the model's SELECT over 12 days: 8-12 ms), so what decides it is the
  run's fixed cost. \`MINI_DBT_PG_TRACE=1\` logs each round trip with its milliseconds. Last round: a
  connect of about 8 ms (TCP, SCRAM, the backend's start) and 22 round trips of 0.5-1 ms each. This
  round, 22 round trips and a connect became 12 round trips: (1) a publish's statements (drop and
  create of the staged table, the checks on its rows, delete, insert) go to the server as one script
  after a savepoint, and their answers are read in order as they were one by one; anything but a clean
  pass goes back to the savepoint and runs them singly, so a failure reads exactly as before
  (run-statements.ts, Connection.runBatch); (2) the ledger's rows are posted and answered with the
  COMMIT (the partitions take the run's id from the sequence, currval); (3) a relation's kind comes with
  its columns, a source's kind is read once per node, the fingerprint's render asks the warehouse
  nothing, and the ledger's presence is not checked inside a run that created it; (4) a closed
  connection stays open, reset by DISCARD ALL, for 10 s for the process's next open of the target (the
  in-process nightlies here, a backfill's preview, publish and checks): no connect, warm catalog caches.
  A CLI nightly still pays one connect (about 8 ms) on top. The bench keeps autovacuum off raw_orders
  (bench/pg-workspace.ts): its ANALYZE, due within a minute of the seed, used to land mid-figure; with
  statistics the nightly's group hashes instead of sorting (23 -> 16 ms at load 9, TRIAL_ANALYZE), but
  the 54-day range is read through a parallel scan of the whole load_date index (154 ms instead of a
  bitmap scan of the (order_date, load_date) index), so the seed's state, without statistics, is kept.
  **Backfill**: the engine row's per-day part is the model's SELECT (a scan of the (order_date,
  load_date) index for the range, then the window's and the group's sorts, in memory). The
  \`mini-dbt backfill\` row's per-day part was its raw count of the range (126 ms for 54 days): the
  day-or-text expression ran a regular expression twice a row; it now tests the pattern only on texts
  longer than a day (14 ms, index-only over the frozen seed), 4.75 ms a day to 1.4. Its fixed overhead
  (about 145 ms) is now mostly the full reload's raw counts (a count of all 1.2M rows and one of the
  rows landed since a date: 80-120 ms at load 2-4); its four connections are one, reused.
  **Noise**: the full rebuild's median moved between 1.16 and 2.73 s across this session's runs (load
  1.2-9 from other work on the machine), the nightly between 25 and 45 ms, so the nightly's ratio
  between 1.64% and 2.46%; the row above is the last run, at load 1.2 (25 ms against 1.16 s: 2.15%,
  inside 2.19% by a hair). On a busy machine it can miss.
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
