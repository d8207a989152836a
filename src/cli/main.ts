#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { withCommonOptions, withSelection } from './common-options.js';

const VERSION = '0.1.0';

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
  .exitOverride();

withSelection(withCommonOptions(program.command('run').description('build the selected models')))
  .option('-f, --full-refresh', 'rebuild incremental models from scratch')
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('run', flags)));

withSelection(withCommonOptions(program.command('seed').description('load seeds/*.csv into tables')))
  .option('-f, --full-refresh', 'accepted for dbt compatibility (seeds are always replaced)')
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('seed', flags)));

withSelection(withCommonOptions(program.command('build').description('seeds, then models, in one DAG')))
  .option('-f, --full-refresh', 'rebuild incremental models from scratch')
  .action((flags) => act(async () => (await import('./run-command.js')).runCommand('build', flags)));

withSelection(withCommonOptions(program.command('compile').description('render models (both branches of incremental ones) and show the statements a run would execute')))
  .option('-f, --full-refresh', 'plan as under --full-refresh')
  .option('--json', 'machine-readable output')
  .action((flags) => act(async () => (await import('./compile-command.js')).compileCommand(flags)));

withSelection(withCommonOptions(program.command('ls').alias('list').description('list selected nodes')))
  .option('--resource-type <type...>', 'model, seed, source, test')
  .option('--output <format>', 'selector (default), name, path or json')
  .action((flags) => act(async () => (await import('./ls-command.js')).lsCommand(flags)));

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
