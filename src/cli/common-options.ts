import { Option, type Command } from 'commander';
import { parseVars } from '../api/parse-vars.js';
import type { SessionOptions } from '../api/session.js';
import { indirectSelectionMode, type IndirectSelection } from '../graph/select-with-tests.js';
import { ProjectError } from '../errors/project-error.js';

export interface CommonFlags {
  projectDir?: string;
  database?: string;
  vars?: string;
  busyTimeout?: string;
}

/** --project-dir, --database, --vars and --busy-timeout, accepted by every command. */
export function withCommonOptions(command: Command): Command {
  return command
    .option('--project-dir <dir>', 'the project folder (default: the current directory)')
    .option('--database <path>', 'the SQLite warehouse file (overrides the project\'s database:)')
    .option('--vars <yaml>', "variables as a YAML mapping, e.g. '{as_of: \"2026-09-02\"}'")
    .addOption(new Option('--busy-timeout <ms>', 'how long to wait for another process holding the write lock'));
}

export function withSelection(command: Command): Command {
  return command
    .option('-s, --select <selector...>', 'nodes to include: name, +name, name+, tag:x, path:models/x, a,b (intersection)')
    .option('--exclude <selector...>', 'nodes to leave out (same grammar as --select)');
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
  return { projectDir: flags.projectDir, database: flags.database, vars: parseVars(flags.vars), busyTimeoutMs };
}
