import pc from 'picocolors';

/** dbt's log levels, lowest first; `none` (a threshold only) prints nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogThreshold = LogLevel | 'none';
/** dbt's --log-format: text (and its alias default), debug (timestamped with the level), json (one object a line). */
export type LogFormat = 'text' | 'debug' | 'json';

const RANK: Record<LogThreshold, number> = { debug: 0, info: 1, warn: 2, error: 3, none: 4 };

export interface OutputSettings {
  /** The lowest level printed (--log-level; --quiet makes it `error`). */
  readonly level: LogThreshold;
  readonly format: LogFormat;
  /** --printer-width: the width of the dotted progress lines. */
  readonly printerWidth: number;
  /** --use-colors / --no-use-colors; unset: colors only on a terminal without NO_COLOR. */
  readonly useColors?: boolean;
  /** --no-print (or DBT_PRINT=false): templates' print() prints nothing. */
  readonly noPrint?: boolean;
}

let output: OutputSettings = { level: 'info', format: 'text', printerWidth: 80 };

const defaultColors = (): boolean => Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;

/** Colors only when stdout is a terminal (never in pipes, files or CI logs), unless --use-colors/--no-use-colors says. */
export const colors: ReturnType<typeof pc.createColors> = { ...pc.createColors(defaultColors()) };

/** The global flags' effect on output (the CLI sets it once, before the command runs). */
export function setOutput(settings: Partial<OutputSettings>): void {
  output = { ...output, ...settings };
  // JSON lines carry plain text.
  const on = output.format === 'json' ? false : (output.useColors ?? defaultColors());
  Object.assign(colors, pc.createColors(on));
}

export function outputSettings(): OutputSettings {
  return output;
}

/** Whether a line of this level is printed. */
export function shows(level: LogLevel): boolean {
  return RANK[level] >= RANK[output.level];
}

/** dbt's `HH:MM:SS  ` prefix (UTC). */
export function stamp(): string {
  return `${new Date().toISOString().slice(11, 19)}  `;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** One log event as a text (or debug, or JSON) line, if its level is shown. */
export function formatEvent(text: string, level: LogLevel, name: string): string | undefined {
  if (!shows(level)) return undefined;
  const now = new Date();
  if (output.format === 'json') {
    // dbt's structured log line, the fields it always has (no `data`: mini-dbt's events carry only their message).
    return JSON.stringify({
      info: { name, level, msg: text.replace(ANSI, ''), ts: now.toISOString(), pid: process.pid, thread: 'MainThread', category: '', code: '', extra: {}, invocation_id: '' },
    });
  }
  if (output.format === 'debug') return `${now.toISOString().slice(11, 23)} [${level.padEnd(5)}] [MainThread]: ${text}`;
  return `${stamp()}${text}`;
}

/** A progress or result line on stdout (level info unless given; `name` is the event name of --log-format json). */
export function line(text = '', event: { readonly level?: LogLevel; readonly name?: string } = {}): void {
  // JSON lines are events: the blank lines that lay out the text format are not.
  if (output.format === 'json' && text === '') return;
  const formatted = formatEvent(text, event.level ?? 'info', event.name ?? 'Note');
  if (formatted !== undefined) process.stdout.write(`${formatted}\n`);
}

/** A template's print(): its text as it is on stdout (no timestamp, whatever the log level or format, as Python's print in dbt), unless --no-print. */
export function printLine(text: string): void {
  if (!output.noPrint) process.stdout.write(`${text}\n`);
}
