#!/usr/bin/env node
import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { Command, CommanderError, Option } from 'commander';
import { withCommonOptions, withDeferral, withIndirectSelection, withSelection, withThreads } from './common-options.js';
import { withGlobalFlags } from './global-flags.js';
import { refuseEmptyValues } from './refuse-empty-values.js';
import { watchOutput } from './output-watch.js';


watchOutput();

// `mini-dbt run | head`: once the reader is gone, output is dropped and the command finishes its work
// (a run still publishes and records what it built), instead of dying on EPIPE with a stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = (() => true) as typeof stream.write;
  });
}

/** Each command's module is loaded only when that command runs, for a fast start. */
async function act(load: () => Promise<number>): Promise<void> {
  let code: number;
  try {
    code = await load();
  } catch (err) {
    const { handleError } = await import('./handle-error.js');
    code = handleError(err);
  }
  process.exitCode = code;
}

const program = new Command('mini-dbt')
  .description('dbt-like SQL transformations on SQLite, built for incremental models, late rows and backfills')
  .version(VERSION, '-v, --version')
  .showSuggestionAfterError(true)
  // A command's --help lists the global flags too: they work after the command name as well as before it.
  .configureHelp({ showGlobalOptions: true })
  .exitOverride();
withGlobalFlags(program);

/** run, build and compile: dbt's --empty. */
const EMPTY_HELP = 'refs and sources read as empty (limit 0) subqueries: every relation is built with its columns and no rows (`this` is not limited)';
/** run and build: dbt 1.10's --sample. */
const SAMPLE_HELP = "refs and sources with an event_time keep only the rows of a window: '3 days' (hours, days, months, years) back from now (the as_of var when given), or \"{'start': '2024-07-01', 'end': '2024-07-08 18:00:00'}\"";

withDeferral(withThreads(withSelection(withCommonOptions(program.command('run').description('build the selected models')))))
  .option('-f, --full-refresh', 'rebuild incremental models from scratch')
  .option('--empty', EMPTY_HELP)
  .option('--sample <window>', SAMPLE_HELP)
  .option('--event-time-start <time>', 'microbatch models: first batch time (UTC, e.g. 2024-09-01); needs --event-time-end')
  .option('--event-time-end <time>', 'microbatch models: end of the range, exclusive')
  .option('--dry-run', 'print what each selected model would do (mode, reason, schema changes, every statement); nothing is written to the warehouse')
  .option('--reason <text>', 'why this run happened, recorded in the run ledger (with start/end vars, a backfill: asked for on a terminal)')
  .action((flags) => act(async () => (flags.dryRun
    ? (await import('./compile-command.js')).compileCommand({ ...flags, planOnly: true })
    : (await import('./run-command.js')).runCommand('run', flags))));

withDeferral(withThreads(withSelection(withCommonOptions(program.command('seed').description('load seeds/*.csv into tables')))
  .option('-f, --full-refresh', 'accepted for dbt compatibility (seeds are always replaced)')
  .option('--empty', "dbt 1.12's seed --empty: each seed table is created with its columns and no rows")
  .option('--show', "print the first rows of each loaded seed, as dbt's seed --show does")))
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('seed', flags)));

withDeferral(withThreads(withIndirectSelection(withSelection(withCommonOptions(program.command('build').description('seeds, then models, in one DAG'))))))
  .option('-f, --full-refresh', 'rebuild incremental models from scratch')
  .option('--empty', EMPTY_HELP)
  .option('--sample <window>', SAMPLE_HELP)
  .option('--store-failures', "keep every data test's failing rows in a table")
  .option('--event-time-start <time>', 'microbatch models: first batch time (UTC, e.g. 2024-09-01); needs --event-time-end')
  .option('--event-time-end <time>', 'microbatch models: end of the range, exclusive')
  .option('--resource-type <type...>', 'only these node types: model, seed, snapshot, test, unit_test')
  .option('--exclude-resource-type <type...>', 'leave these node types out (e.g. unit_test)')
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('build', flags)));

withDeferral(withThreads(withSelection(withCommonOptions(program.command('snapshot').description('run the selected snapshots (type 2 slowly changing dimensions: a new row per change, the old one closed)')))))
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('snapshot', flags)));

withDeferral(withSelection(withCommonOptions(program.command('clone').description("dbt's clone: for each selected model, seed and snapshot, a relation in the target reading the --state's (a view; on SQLite a copy when the state's is in another file)"))))
  .option('-f, --full-refresh', 'replace relations the target has already (without it they are left alone: No-op)')
  .option('--resource-type <type...>', 'only these node types: model, seed, snapshot')
  .option('--exclude-resource-type <type...>', 'leave these node types out')
  .action((flags) => act(async () => (await import('./clone-command.js')).cloneCommand(flags)));

withDeferral(withThreads(withSelection(withCommonOptions(program.command('compile').description('render models (both branches of incremental ones) and show the statements a run would execute')))))
  .option('-f, --full-refresh', 'plan as under --full-refresh')
  .option('--empty', EMPTY_HELP)
  .option('--json', 'machine-readable output')
  .action((flags) => act(async () => (await import('./compile-command.js')).compileCommand(flags)));

withIndirectSelection(withSelection(withCommonOptions(program.command('ls').alias('list').description('list selected nodes')), { modelsOnlyModels: true }))
  .option('--resource-type <type...>', 'model, seed, snapshot, source, test, unit_test (or all)')
  .option('--exclude-resource-type <type...>', 'leave these node types out')
  .option('--output <format>', 'selector (default), name, path or json')
  .option('--output-keys <keys...>', 'with --output json, the keys to print (e.g. "name resource_type"; default: alias, name, package_name, depends_on, tags, config, resource_type, source_name, original_file_path, unique_id)')
  .action((flags) => act(async () => (await import('./ls-command.js')).lsCommand(flags)));

withCommonOptions(program.command('lateness').argument('<seed-or-source>').description('how late raw rows land: histogram, percentiles, what a lookback misses, the required lookback'))
  .option('--lookback <days>', "the lookback to check (default: the project's lookback_days; with --unit hour, lookback_hours)")
  .option('--unit <unit>', 'lateness in days (loaded-at day minus event day, the default) or hours (for hourly partitions)')
  .option('--by <column>', 'break the missed rows down by this column (e.g. status)')
  .option('--event-time <column>', "override the yml's event_time")
  .option('--loaded-at <column>', "override the yml's loaded_at")
  .option('--json', 'machine-readable output')
  .action((name, flags) => act(async () => (await import('./lateness-command.js')).latenessCommand(name, flags)));

withCommonOptions(program.command('parse').description("load and check the whole project (templates, yml, refs) and write target/manifest.json; the warehouse is not touched"))
  .action((flags) => act(async () => (await import('./parse-command.js')).parseCommand(flags)));

withCommonOptions(program.command('stale').argument('<model>').description('partitions where the live table differs from a full rebuild now (or as of --vars as_of), and the recent ones not final yet'))
  .option('--fast', 'answer from the run ledger and the raw rows, without rebuilding')
  .option('--candidates', "rebuild and compare only the partitions the run ledger cannot vouch for (late rows since their last write, a changed model definition); trusts that the model's incremental runs compute what its full refresh does")
  .option('--json', 'machine-readable output')
  .option('--fail-on-stale', 'exit 1 when any partition is stale (for a scheduler to alert on)')
  .action((model, flags) => act(async () => (await import('./stale-command.js')).staleCommand(model, flags)));

withCommonOptions(program.command('backfill').argument('<model>').description('rewrite a range of partitions with everything landed so far: staged, checked, published in one transaction'))
  .option('--start <date>', 'first partition to rewrite (YYYY-MM-DD; hourly partitions: "YYYY-MM-DD HH:00:00")')
  .option('--end <date>', 'last partition to rewrite (YYYY-MM-DD; hourly partitions: "YYYY-MM-DD HH:00:00")')
  .option('--stale', 'rewrite the ranges `stale` reports')
  .option('--fast', 'with --stale: find them from the ledger instead of a rebuild')
  .option('--keys <keys>', 'rewrite the partitions these entity keys touch in the raw input (comma-separated, e.g. 50044,50071)')
  .option('--key-column <column>', "with --keys: the raw input's column the keys are values of (default: its id or first *_id column, e.g. order_id)")
  .option('--reason <text>', 'why (recorded in the run ledger; asked for on a terminal, required in scripts)')
  .option('--dry-run', 'print the plan: partitions, what changes (per partition and in total), raw rows read against a full rebuild, downstream models; nothing is written')
  .option('-s, --select <selector...>', 'model+ also rebuilds the models downstream')
  .option('--json', 'machine-readable output')
  .action((model, flags) => act(async () => (await import('./backfill-command.js')).backfillCommand(model, flags)));

withCommonOptions(program.command('history').argument('<model>').description('when, why and from which as-of a model (or one partition) was written, from the run ledger'))
  .option('--partition <value>', 'one partition, e.g. 2026-09-15')
  .option('--limit <n>', 'at most this many builds (default 50)')
  .option('--json', 'machine-readable output')
  .action((model, flags) => act(async () => (await import('./history-command.js')).historyCommand(model, flags)));

withCommonOptions(program.command('replay').argument('<model>').description('simulate the nightly job night by night on a scratch copy; stale partitions per night'))
  .option('--from <date>', 'first night (the table starts as a full build as of the night before)')
  .option('--to <date>', 'last night')
  .option('--weekly-backfill <days>', 'every Sunday also rewrite the last N days')
  .option('--keep <file>', 'save the simulated warehouse to this new file, creating missing folders (inspect it with --database)')
  .option('--verbose', 'list every night a day went stale and why (default: a summary and the first few)')
  .option('--grid', 'draw nights x days: the window, late rows applied (+) or missed (X), stale days (#); both lookbacks side by side')
  .option('--compare-lookback <days>', 'the second pass\'s lookback (default: the required one, the longest lateness)')
  .option('--candidates', "each night's check rebuilds only the partitions the run ledger cannot vouch for (as stale --candidates)")
  .option('--json', 'machine-readable output')
  .action((model, flags) => act(async () => (await import('./replay-command.js')).replayCommand(model, flags)));

withCommonOptions(program.command('explain-order').argument('<order_id>').description('follow one order through every night: when each version landed, which runs rewrote its day, what the table and a full rebuild count'))
  .option('--model <name>', 'the incremental model to follow it into (when several read the raw rows)')
  .option('--source <name>', 'the seed or source holding its versions (when several declare event_time and loaded_at)')
  .option('--id-column <column>', 'the column naming the order (default: the first column named id or ending in _id)')
  .option('--json', 'machine-readable output')
  .action((orderId, flags) => act(async () => (await import('./explain-order-command.js')).explainOrderCommand(orderId, flags)));

withThreads(withCommonOptions(program.command('retry').description('rerun what failed or was skipped in the last run/build (target/run_results.json); microbatch models rerun only their failed batches')))
  .action((flags) => act(async () => (await import('./retry-command.js')).retryCommand(flags)));

withDeferral(withThreads(withIndirectSelection(withSelection(withCommonOptions(program.command('test').description('run unit tests and data tests (schema yml tests and tests/*.sql): PASS / WARN / FAIL'))))))
  .option('--store-failures', "keep every test's failing rows in a table (dbt_test__audit__<test>)")
  .option('--resource-type <type...>', 'test (data tests) or unit_test')
  .option('--exclude-resource-type <type...>', 'leave these out (e.g. unit_test)')
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('test', flags)));

withCommonOptions(program.command('lesson').description("the story's lesson step by step on a scratch copy of the example: each step runs the real command, you predict the figure, then see it"))
  .option('-y, --yes', 'run straight through without asking for predictions (scripts)')
  .option('--keep <dir>', 'keep the scratch project in this new folder')
  .action((flags) => act(async () => (await import('./lesson-command.js')).lessonCommand(flags)));

withDeferral(withCommonOptions(program.command('show').description("preview a model's, a seed's or an inline query's rows, read-only (the model is compiled and run, as dbt's show)")), { withState: true })
  .option('-s, --select <name...>', 'the models or seeds to preview, by name')
  .option('--inline <sql>', 'a query to preview (Jinja rendered against the project: ref, source, var, macros); one SELECT')
  .option('--limit <n>', 'at most this many rows (default 5; -1: every row)')
  .option('--output <format>', 'text (a table, the default) or json')
  .action((flags) => act(async () => (await import('./show-command.js')).showCommand(flags)));

withDeferral(withCommonOptions(program.command('run-operation').argument('<macro>').description("call a project macro with keyword arguments (--args), in dbt's context, against the warehouse")), { withState: true })
  .option('--args <yaml>', "the macro's keyword arguments as a YAML mapping, e.g. '{table_name: orders}'")
  .action((macro, flags) => act(async () => (await import('./run-operation-command.js')).runOperationCommand(macro, flags)));

const docs = program.command('docs').description('a static documentation site with the lineage graph');
withThreads(withCommonOptions(docs.command('generate').description('write the site to target/ (open target/index.html, no server needed)')))
  .option('--no-compile', 'do not render compiled SQL')
  .option('--no-replay', "skip the Replay page's replay (the nightly job simulated on a scratch copy: a few seconds)")
  .action((flags) => act(async () => (await import('./docs-command.js')).docsGenerateCommand(flags)));
withCommonOptions(docs.command('serve').description('serve target/ on localhost (generate first)'))
  .option('--port <port>', 'port (default 8080)')
  .option('--host <host>', 'interface to listen on (default 127.0.0.1)')
  .action((flags) => act(async () => (await import('./docs-command.js')).docsServeCommand(flags)));

const source = program.command('source').description("dbt's source commands: source freshness");
for (const name of ['freshness', 'snapshot-freshness']) {
  withThreads(withSelection(withCommonOptions(source.command(name).description(name === 'freshness' ? 'how old the newest row of each source table is (max of its loaded_at_field) against its freshness warn_after / error_after; target/sources.json' : "dbt's older name of `source freshness`"))))
    .option('-o, --output <path>', 'where to write sources.json (default: target/sources.json)')
    .action((flags) => act(async () => (await import('./source-freshness-command.js')).sourceFreshnessCommand(flags)));
}

withCommonOptions(program.command('debug').description("dbt's debug: versions, the project file, profiles.yml and the target in use, and a connection test"))
  .action((flags) => act(async () => (await import('./debug-command.js')).debugCommand(flags)));

program.command('init').argument('[project_name]', 'the new project and its folder (asked on a terminal; my_new_project in scripts)')
  .description("dbt's init: a new project folder with dbt's starter models and tests and a dbt-sqlite profiles.yml")
  .option('--project-dir <dir>', 'the folder to create the project in (default: the current directory)')
  .option('--skip-profile-setup', 'write no profiles.yml (the project\'s warehouse.db is then the target)')
  .action((name, flags) => act(async () => (await import('./init-command.js')).initCommand(name, flags)));

withCommonOptions(program.command('deps').description("dbt's deps: install packages.yml's (or dependencies.yml's) local, git and hub packages into dbt_packages and write package-lock.yml"))
  .option('--upgrade', 'resolve the packages again, ignoring package-lock.yml')
  .option('--lock', 'only resolve the packages and write package-lock.yml; install nothing')
  .option('--add-package <name@version>', 'add a package to the packages file first (e.g. dbt-labs/dbt_utils@1.3.0)')
  .addOption(new Option('--source <source>', "where --add-package's package comes from").choices(['hub', 'git', 'local']).default('hub'))
  .action((flags) => act(async () => (await import('./deps-command.js')).depsCommand(flags)));

withCommonOptions(program.command('clean').description("dbt's clean: remove the project file's clean-targets folders (default: the target path)"))
  .option('--clean-project-files-only', 'refuse clean-targets outside the project (the default; also DBT_CLEAN_PROJECT_FILES_ONLY)')
  .option('--no-clean-project-files-only', 'also clean clean-targets outside the project')
  .action((flags) => act(async () => (await import('./clean-command.js')).cleanCommand(flags)));

refuseEmptyValues(program);

/** Parse the command line and run the command (no top-level await: the CLI also ships as one CommonJS file, see cli-loader.ts). */
async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      const ok = err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help';
      process.exitCode = ok ? 0 : 2;
    } else {
      throw err;
    }
  }
}

void main();
