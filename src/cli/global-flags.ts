import { createRequire } from 'node:module';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { collectUserWarnings } from '../errors/user-warning.js';
import { formatEvent, setOutput, type LogFormat, type LogThreshold } from './terminal.js';

/**
 * dbt's global flags (`dbt --help`), defined once on the program. commander
 * reads a program option wherever it appears, so each works before the
 * command (`mini-dbt --quiet run`) and after it (`mini-dbt run --quiet`), as
 * in dbt. The action's flags get the ones a command reads (--fail-fast,
 * --warn-error, --no-partial-parse, --debug); output settings go to
 * terminal.ts before the command runs.
 */
export interface GlobalFlags {
  failFast?: boolean;
  quiet?: boolean;
  debug?: boolean;
  logLevel?: LogThreshold;
  logFormat?: string;
  useColors?: boolean;
  /** --print / --no-print (DBT_PRINT): templates' print(). */
  print?: boolean;
  partialParse?: boolean;
  printerWidth?: number;
  warnError?: boolean;
  warnErrorOptions?: WarnErrorOptions;
}

/** --warn-error-options: dbt's include/exclude (1.10: error/warn) lists of event names, or `all`. */
export interface WarnErrorOptions {
  readonly include: 'all' | readonly string[];
  readonly exclude: readonly string[];
  /** Warnings (by dbt's event name) not printed at all. */
  readonly silence?: readonly string[];
}

/** The dbt event whose warning --warn-error turns into a failure in mini-dbt: a data test's WARN (and a warn-severity audit). */
const TEST_WARNING_EVENT = 'LogTestResult';

/** The flags dbt accepts that have nothing to act on in mini-dbt: accepted and documented (README, Compatibility with dbt). */
const ACCEPTED_WITHOUT_EFFECT: readonly { flags: string; negatable?: boolean; why: string }[] = [
  { flags: '--send-anonymous-usage-stats', negatable: true, why: 'mini-dbt sends nothing' },
  { flags: '--write-json', negatable: true, why: 'target/ artifacts are always written' },
  { flags: '--log-path <path>', why: 'mini-dbt writes no log file' },
  { flags: '--log-level-file <level>', why: 'mini-dbt writes no log file' },
  { flags: '--log-format-file <format>', why: 'mini-dbt writes no log file' },
  { flags: '--use-colors-file', negatable: true, why: 'mini-dbt writes no log file' },
  { flags: '--log-file-max-bytes <bytes>', why: 'mini-dbt writes no log file' },
  { flags: '--static-parser', negatable: true, why: 'one parser' },
  { flags: '--use-experimental-parser', negatable: true, why: 'one parser' },
  { flags: '--partial-parse-file-diff', negatable: true, why: 'the parse cache compares file contents' },
  { flags: '--populate-cache', negatable: true, why: 'no relation cache' },
  { flags: '--cache-selected-only', negatable: true, why: 'no relation cache' },
  { flags: '--introspect', negatable: true, why: 'introspective queries always run' },
  { flags: '--log-cache-events', negatable: true, why: 'no relation cache' },
  { flags: '--macro-debugging', negatable: true, why: 'no macro debugger' },
  { flags: '--single-threaded', negatable: true, why: 'one node at a time already' },
];

const positiveInteger = (what: string) => (value: string): number => {
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < 1 || Number(value) > 10_000) {
    throw new InvalidArgumentError(`${what} must be a whole number from 1 to 10000.`);
  }
  return Number(value);
};

/** --warn-error-options '{include: all}' / '{include: [LogTestResult], exclude: [...]}' (YAML or JSON, as in dbt). */
export function parseWarnErrorOptions(text: string): WarnErrorOptions {
  let value: unknown;
  try {
    value = (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new InvalidArgumentError(`It is not valid YAML or JSON (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); e.g. '{include: all}' or '{include: [LogTestResult], exclude: []}'.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentError("It must be a mapping with include (or error), exclude (or warn) and silence, e.g. '{include: all}'.");
  }
  const known = ['include', 'error', 'exclude', 'warn', 'silence'];
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new InvalidArgumentError(`Unknown key '${unknown[0]}'; valid: ${known.join(', ')}.`);
  const v = value as Record<string, unknown>;
  const list = (key: string, allowAll: boolean): 'all' | string[] => {
    const x = v[key];
    if (x === undefined || x === null) return [];
    if (allowAll && (x === 'all' || x === '*')) return 'all';
    if (Array.isArray(x) && x.every((e) => typeof e === 'string')) return x as string[];
    throw new InvalidArgumentError(`'${key}' must be ${allowAll ? "'all', '*' or " : ''}a list of event names, got ${JSON.stringify(x)}.`);
  };
  const include = [list('include', true), list('error', true)];
  const exclude = [list('exclude', false), list('warn', false)].flat() as string[];
  const silence = list('silence', false) as string[];
  return { include: include.includes('all') ? 'all' : (include.flat() as string[]), exclude, silence };
}

/** Whether --warn-error-options makes a data test's WARN a failure (mini-dbt's one warning with a dbt event name). */
export function warnErrorFromOptions(options: WarnErrorOptions | undefined): boolean {
  return warnErrorIncludes(options, TEST_WARNING_EVENT);
}

/** Whether --warn-error-options turns this dbt event's warning into an error. */
function warnErrorIncludes(options: WarnErrorOptions | undefined, event: string): boolean {
  if (!options) return false;
  if (options.exclude.includes(event)) return false;
  return options.include === 'all' || options.include.includes(event);
}

const LOG_FORMATS: Record<string, LogFormat> = { text: 'text', default: 'text', debug: 'debug', json: 'json' };

/** Add dbt's global flags to the program, and apply them before every command's action. */
export function withGlobalFlags(program: Command): Command {
  program
    .option('-x, --fail-fast', 'stop at the first failure: the nodes not yet started are skipped (exit 1)')
    .addOption(new Option('--no-fail-fast').hideHelp())
    .option('-q, --quiet', 'print only errors (and the output a command exists for: ls, compile, --json)')
    .addOption(new Option('--no-quiet').hideHelp())
    .option('-d, --debug', 'debug logging (--log-level debug), and the stack of every error')
    .addOption(new Option('--no-debug').hideHelp())
    .addOption(new Option('--log-level <level>', 'the lowest level printed').choices(['debug', 'info', 'warn', 'error', 'none']))
    .addOption(new Option('--log-format <format>', 'text (default), debug (time and level on each line), json (one JSON object a line: info.name, info.level, info.msg, info.ts)').choices(['text', 'default', 'debug', 'json']))
    .option('--use-colors', 'colors even when stdout is not a terminal')
    .option('--no-use-colors', 'no colors (also NO_COLOR=1)')
    .option('--print', "print what templates' print() calls print (the default)")
    .option('--no-print', "templates' print() prints nothing (also DBT_PRINT=false)")
    .option('--partial-parse', 'reuse the parse cache target/partial_parse.json (the default)')
    .option('--no-partial-parse', 'parse every file again, neither reading nor writing target/partial_parse.json')
    .addOption(new Option('--printer-width <n>', 'width of the progress lines (default 80)').argParser(positiveInteger('--printer-width')))
    .option('--warn-error', 'warnings are failures: a test that would WARN fails (exit 1), a warn-severity audit stops its publish')
    .option('--version-check', "check require-dbt-version of the project and its packages against the dbt version mini-dbt behaves as (the default)")
    .option('--no-version-check', 'skip that check (also DBT_VERSION_CHECK=false)')
    .addOption(new Option('--warn-error-options <yaml>', "'{include: all}' is --warn-error; '{include: [LogTestResult], exclude: [...]}' names dbt events (only LogTestResult acts in mini-dbt)").argParser(parseWarnErrorOptions));
  for (const { flags, negatable, why } of ACCEPTED_WITHOUT_EFFECT) {
    program.addOption(new Option(flags, `accepted for dbt compatibility; no effect (${why})`).hideHelp());
    if (negatable) program.addOption(new Option(flags.replace(/^--/, '--no-')).hideHelp());
  }
  program.addHelpText('after', `
dbt's global flags work before or after the command (mini-dbt --quiet run is mini-dbt run --quiet).
Accepted for dbt compatibility, without effect: ${ACCEPTED_WITHOUT_EFFECT.map((f) => (f.negatable ? f.flags.replace(/^--/, '--[no-]') : f.flags.split(' ')[0])).join(', ')}.`);
  program.hook('preAction', (_program, action) => {
    const g = program.opts<GlobalFlags>();
    const debug = g.debug === true;
    setOutput({
      level: g.quiet ? 'error' : debug ? 'debug' : (g.logLevel ?? 'info'),
      format: LOG_FORMATS[g.logFormat ?? 'text'] ?? 'text',
      ...(g.printerWidth !== undefined ? { printerWidth: g.printerWidth } : {}),
      ...(g.useColors !== undefined ? { useColors: g.useColors } : {}),
      // dbt's DBT_PRINT: false (or 0) silences print() unless --print says otherwise.
      noPrint: g.print === false || (g.print === undefined && /^(false|0|no)$/i.test(process.env.DBT_PRINT ?? '')),
    });
    // Warnings about the user's files (stderr) follow --quiet, --log-level and --log-format too.
    collectUserWarnings((message, event) => {
      if (event !== undefined && g.warnErrorOptions?.silence?.includes(event)) return;
      const formatted = formatEvent(`Warning: ${message}`, 'warn', 'Note');
      if (formatted === undefined) return;
      if (g.logFormat === 'json') process.stdout.write(`${formatted}\n`);
      else process.stderr.write(`Warning: ${message}\n`);
    });
    const warnError = g.warnError === true || warnErrorFromOptions(g.warnErrorOptions);
    if (warnError) action.setOptionValue('warnError', true);
    // dbt's NothingToDo (a selection that leaves nothing): a warning, an error under --warn-error.
    if (g.warnError === true || warnErrorIncludes(g.warnErrorOptions, 'NothingToDo')) action.setOptionValue('nothingToDoIsError', true);
    if (g.failFast) action.setOptionValue('failFast', true);
    if (g.partialParse === false) action.setOptionValue('partialParse', false);
    if (debug) action.setOptionValue('debug', true);
    // dbt's DBT_VERSION_CHECK: the flag sets it for the project loader (and deps) of this process.
    const versionCheck = (program.opts() as { versionCheck?: boolean }).versionCheck;
    if (versionCheck !== undefined) process.env.DBT_VERSION_CHECK = String(versionCheck);
  });
  return program;
}
