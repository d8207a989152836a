import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseVars } from '../api/parse-vars.js';
import type { SessionOptions } from '../api/session.js';
import { indirectSelectionMode, type IndirectSelection } from '../graph/select-with-tests.js';
import { ProjectError } from '../errors/project-error.js';

export interface CommonFlags {
  projectDir?: string;
  database?: string;
  vars?: string;
  busyTimeout?: string;
  profilesDir?: string;
  profile?: string;
  target?: string;
  /** --no-partial-parse (a global flag, copied onto the command's flags). */
  partialParse?: boolean;
  /** --target-path (else DBT_TARGET_PATH). */
  targetPath?: string;
  /** --state (else DBT_STATE), on the commands that select. */
  state?: string;
  /** --selector: a named selector of selectors.yml. */
  selector?: string;
  /** dbt's --defer / --no-defer, --defer-state, --favor-state / --no-favor-state (else DBT_DEFER, DBT_DEFER_STATE, DBT_FAVOR_STATE). */
  defer?: boolean;
  deferState?: string;
  favorState?: boolean;
}

/** A boolean of dbt's environment variables: true, 1, yes (any case) are true; anything else false; unset undefined. */
function envFlag(name: string): boolean | undefined {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return undefined;
  return /^(true|1|yes|y|on)$/i.test(value.trim());
}

/**
 * dbt's deferral flags on the commands that render refs against the warehouse (run, build, test, seed,
 * snapshot, compile, show): --defer reads an unselected node the target has not built from the --state
 * (or --defer-state) manifest's relation; --favor-state reads it there even when the target has one.
 * `withState`: also --state, for a command that has no selection (show).
 */
export function withDeferral(command: Command, options: { withState?: boolean } = {}): Command {
  if (options.withState) command.addOption(new Option('--state <dir>', 'the target folder of an earlier run whose manifest.json --defer reads').env('DBT_STATE'));
  return command
    .option('--defer', 'a ref() to a node that is not selected and not built in this target reads the relation the --state (or --defer-state) manifest built (dbt\'s Slim CI); default from DBT_DEFER')
    .option('--no-defer', 'do not defer (overrides DBT_DEFER)')
    .addOption(new Option('--defer-state <dir>', 'the target folder to defer to, when it is not --state\'s').env('DBT_DEFER_STATE'))
    .option('--favor-state', 'with --defer: unselected nodes read the state\'s relation even when this target has its own; default from DBT_FAVOR_STATE')
    .option('--no-favor-state', 'do not favor the state (overrides DBT_FAVOR_STATE)');
}

/** --project-dir, --database, --vars, --busy-timeout and dbt's profile flags, accepted by every command. */
export function withCommonOptions(command: Command): Command {
  return command
    .option('--project-dir <dir>', 'the project folder (default: the current directory)')
    .option('--database <path>', 'the SQLite warehouse file (overrides the project\'s database:)')
    .option('--vars <yaml>', "variables as a YAML mapping, e.g. '{as_of: \"2026-09-02\"}'")
    .option('--profiles-dir <dir>', 'the folder holding profiles.yml (default: DBT_PROFILES_DIR, the current directory, ~/.dbt)')
    .addOption(new Option('--profile <name>', "the profile to use (default: the project file's profile:)").env('DBT_PROFILE'))
    .addOption(new Option('-t, --target <name>', "the profile's output to run against (default: the profile's target:)").env('DBT_TARGET'))
    .addOption(new Option('--busy-timeout <ms>', 'how long to wait for another process holding the write lock'))
    .addOption(new Option('--target-path <path>', "where artifacts and compiled SQL go, relative to the project (default: the project file's target-path, else target)").env('DBT_TARGET_PATH'));
}

/**
 * --select and --exclude; `-m`, `--models` and `--model` are dbt's older
 * names for --select, still accepted: their selectors join --select's
 * (on `ls` they also keep only models, as dbt's `ls --models` does).
 */
export function withSelection(command: Command, options: { modelsOnlyModels?: boolean } = {}): Command {
  return command
    .option('-s, --select <selector...>', 'nodes to include: name, +name, name+, tag:x, path:models/x, a,b (intersection)')
    .option('-m, --models <selector...>', options.modelsOnlyModels ? "dbt's older --select, keeping only models (as dbt's ls --models)" : "dbt's older name of --select (also --model)")
    .addOption(new Option('--model <selector...>').hideHelp())
    .option('--exclude <selector...>', 'nodes to leave out (same grammar as --select)')
    .option('--selector <name>', "a named selector of selectors.yml (--select and --exclude are then ignored, as in dbt)")
    .addOption(new Option('--state <dir>', 'the target folder of an earlier run (its manifest.json, run_results.json) that state:new, state:modified[.body|.configs|.relation], state:old, state:unmodified and result:<status> selectors compare with').env('DBT_STATE'))
    .hook('preAction', (cmd) => {
      const { select, models, model } = cmd.opts<{ select?: string[]; models?: string[]; model?: string[] }>();
      const legacy = [...(models ?? []), ...(model ?? [])];
      if (legacy.length === 0) return;
      if (options.modelsOnlyModels) {
        if (select) cmd.error("error: --models and --select cannot be combined on ls (in dbt's ls, --models also keeps only models)", { exitCode: 2 });
        cmd.setOptionValue('models', legacy);
        return;
      }
      cmd.setOptionValue('select', [...(select ?? []), ...legacy]);
    });
}

/** --threads N (dbt): independent nodes at once on PostgreSQL; one at a time on SQLite (one writer). */
export function withThreads(command: Command): Command {
  return command.addOption(new Option('--threads <n>', 'how many independent nodes to build at once (default: the profile\'s threads); PostgreSQL runs them side by side, SQLite one node at a time (one writer)').argParser((value: string) => {
    if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('It must be a whole number of threads from 1.');
    return Number(value);
  }));
}

/** build, test, ls: which data tests the selection brings along. */
export function withIndirectSelection(command: Command): Command {
  return command.option(
    '--indirect-selection <mode>',
    'data tests selected through what they test: eager (any parent selected, the default), cautious (every parent), buildable (every parent selected or upstream), empty (none); default from DBT_INDIRECT_SELECTION',
  );
}

/** --indirect-selection, else the DBT_INDIRECT_SELECTION environment variable (as in dbt). */
export function indirectSelectionOption(flag: string | undefined): IndirectSelection | undefined {
  return indirectSelectionMode(flag ?? process.env.DBT_INDIRECT_SELECTION);
}

/** SQLite's busy timeout is a 32-bit count of milliseconds; a day is more than any lock should be waited for. */
const MAX_BUSY_TIMEOUT_MS = 86_400_000;

export function sessionOptions(flags: CommonFlags): SessionOptions {
  let busyTimeoutMs: number | undefined;
  if (flags.busyTimeout !== undefined) {
    busyTimeoutMs = Number(flags.busyTimeout);
    if (!/^\s*\d+\s*$/.test(flags.busyTimeout) || busyTimeoutMs > MAX_BUSY_TIMEOUT_MS) {
      throw new ProjectError(`--busy-timeout must be a whole number of milliseconds from 0 to ${MAX_BUSY_TIMEOUT_MS} (a day), got '${flags.busyTimeout}'`);
    }
  }
  return {
    projectDir: flags.projectDir, database: flags.database, vars: parseVars(flags.vars), busyTimeoutMs,
    profilesDir: flags.profilesDir, profile: flags.profile, target: flags.target,
    ...(flags.partialParse === false ? { partialParse: false } : {}),
    ...(flags.targetPath !== undefined && flags.targetPath.trim() !== '' ? { targetPath: flags.targetPath } : {}),
    ...(flags.state !== undefined && flags.state.trim() !== '' ? { state: flags.state } : {}),
    ...(flags.selector !== undefined ? { selector: flags.selector } : {}),
    ...deferOptions(flags) };
}

/** The deferral flags, each falling back on its environment variable (commander's env() would take DBT_DEFER=false as set). */
function deferOptions(flags: CommonFlags): { defer?: boolean; deferState?: string; favorState?: boolean } {
  const defer = flags.defer ?? envFlag('DBT_DEFER');
  const favorState = flags.favorState ?? envFlag('DBT_FAVOR_STATE');
  return {
    ...(defer ? { defer } : {}),
    ...(flags.deferState !== undefined && flags.deferState.trim() !== '' ? { deferState: flags.deferState } : {}),
    ...(favorState ? { favorState } : {}),
  };
}
