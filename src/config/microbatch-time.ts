import { ProjectError } from '../errors/project-error.js';
import { EARLIEST_DATE, LATEST_DATE } from '../feed/iso-date.js';

/**
 * Time arithmetic for microbatch models, all in UTC: parse the times users
 * give (config `begin`, --event-time-start/--event-time-end, `as_of`),
 * truncate and step them by a batch size, and write them back as batch
 * labels and as SQL text bounds.
 */

export const BATCH_SIZES = ['hour', 'day', 'month', 'year'] as const;
export type BatchSize = (typeof BATCH_SIZES)[number];

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]00(?::?00)?)?$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A time as dbt accepts it (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DDTHH:MM:SS`, or a Python date or
 * datetime a template made, as `begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0)`), or undefined.
 */
export function tryParseTime(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (isPythonDateTime(value)) return tryParseTime(value.isoformat());
  if (typeof value !== 'string') return undefined;
  const m = TIME.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0..99 as 1900..1999
  d.setUTCHours(hour, minute, second);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  return d;
}

/**
 * A date or datetime of the templates' `modules.datetime` (compile/jinja/py-datetime.ts, above this layer: known
 * by its isoformat(), which writes `2020-01-01T00:00:00`, with `.ffffff` and `+00:00` when it has them).
 */
function isPythonDateTime(value: unknown): value is { isoformat(): string } {
  if (value === null || typeof value !== 'object') return false;
  const tag = Object.prototype.toString.call(value);
  return (tag === '[object datetime]' || tag === '[object date]') && typeof (value as { isoformat?: unknown }).isoformat === 'function';
}

/** Parse a time or fail with a ProjectError naming where it came from. */
export function parseTime(value: unknown, what: string): Date {
  const d = tryParseTime(value);
  if (!d) {
    const shown = String(value);
    throw new ProjectError(`${what} must be a date or time like 2024-09-01 or 2024-09-01 13:00:00 (UTC), got '${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}'`);
  }
  const day = boundText(d).slice(0, 10);
  if (day < EARLIEST_DATE || day > LATEST_DATE) {
    throw new ProjectError(`${what} is ${boundText(d)}, outside the dates mini-dbt works with (${EARLIEST_DATE} to ${LATEST_DATE})`);
  }
  return d;
}

/** The start of the batch that contains `d`. */
export function truncateTime(d: Date, size: BatchSize): Date {
  const y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  switch (size) {
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
    case 'month':
      return new Date(Date.UTC(y, mo, 1));
    case 'day':
      return new Date(Date.UTC(y, mo, d.getUTCDate()));
    case 'hour':
      return new Date(Date.UTC(y, mo, d.getUTCDate(), d.getUTCHours()));
  }
}

/** `d` moved by `n` batches (n may be negative); `d` should be aligned. */
export function addBatches(d: Date, size: BatchSize, n: number): Date {
  switch (size) {
    case 'year':
      return new Date(Date.UTC(d.getUTCFullYear() + n, d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()));
    case 'month':
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate(), d.getUTCHours()));
    case 'day':
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + n, d.getUTCHours()));
    case 'hour':
      return new Date(d.getTime() + n * 3_600_000);
  }
}

/** The first batch boundary at or after `d`. */
export function ceilTime(d: Date, size: BatchSize): Date {
  const t = truncateTime(d, size);
  return t.getTime() === d.getTime() ? t : addBatches(t, size, 1);
}

/** dbt's batch start format (format_batch_start: its log lines, and batch_id without the dashes): `2024`, `2024-09`, `2024-09-17`, `2024-09-17T13`. */
export function batchLabel(start: Date, size: BatchSize): string {
  const y = pad(start.getUTCFullYear(), 4);
  const m = pad(start.getUTCMonth() + 1);
  const d = pad(start.getUTCDate());
  switch (size) {
    case 'year':
      return y;
    case 'month':
      return `${y}-${m}`;
    case 'day':
      return `${y}-${m}-${d}`;
    case 'hour':
      return `${y}-${m}-${d}T${pad(start.getUTCHours())}`;
  }
}

/**
 * dbt's `model.batch.id`: the batch label without its dashes (MicrobatchBuilder.batch_id), `2024`, `202409`,
 * `20240917`, `20240917T13`. The label itself is what dbt's log lines name a batch by (`batch 2024-09-17 of ...`),
 * and what the run ledger records.
 */
export function batchId(label: string): string {
  return label.replace(/-/g, '');
}

/**
 * A batch bound as SQL text. A bound at midnight is written as a bare date
 * (`2024-09-17`), so date-only columns compare correctly: the text
 * `'2024-09-17'` sorts before `'2024-09-17 00:00:00'`, and would otherwise
 * land in the previous day's batch. Datetime values written
 * `YYYY-MM-DD HH:MM:SS[.fff]` compare correctly against both forms.
 */
export function boundText(d: Date): string {
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0) return date;
  return `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * The "now" a microbatch run works back from: the `as_of` var when given
 * (a bare date means the whole night, so the end of that day), else the
 * invocation's start.
 */
export function microbatchNow(asOf: unknown, runStartedAt: Date): Date {
  if (asOf === undefined || asOf === null || asOf === '') return runStartedAt;
  const d = parseTime(asOf, "var 'as_of'");
  return typeof asOf === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(asOf.trim()) ? addBatches(d, 'day', 1) : d;
}

/** --event-time-start/--event-time-end: both or neither, start before end. */
export function parseEventTimeRange(start: unknown, end: unknown): { start: Date; end: Date } | undefined {
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!given(start) && !given(end)) return undefined;
  if (!given(start)) {
    throw new ProjectError('The flag `--event-time-end` was specified, but `--event-time-start` was not. When specifying `--event-time-end`, `--event-time-start` must also be present.');
  }
  if (!given(end)) {
    throw new ProjectError('The flag `--event-time-start` was specified, but `--event-time-end` was not. When specifying `--event-time-start`, `--event-time-end` must also be present.');
  }
  const s = parseTime(start, '--event-time-start');
  const e = parseTime(end, '--event-time-end');
  if (s.getTime() >= e.getTime()) {
    throw new ProjectError(`--event-time-start (${String(start)}) must be before --event-time-end (${String(end)}); the end is exclusive`);
  }
  return { start: s, end: e };
}
