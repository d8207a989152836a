import { ProjectError } from '../errors/project-error.js';
import { EARLIEST_DATE, isIsoDate, LATEST_DATE } from '../feed/iso-date.js';
import { isIsoMonth } from '../feed/iso-month.js';

/** At most this many characters of a bad value are echoed back. */
const SHOWN = 60;

export const shownValue = (value: unknown): string => {
  const text = String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 3)}...` : text;
};

/**
 * The one checked parser for a date a user gives (a flag, a var): a real
 * calendar date written YYYY-MM-DD, from EARLIEST_DATE to LATEST_DATE.
 * Anything else, including text that merely starts with a date, is a
 * ProjectError (exit 2), never a RangeError from the date arithmetic after it.
 */
export function requireIsoDate(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value : value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : String(value);
  if (!isIsoDate(text)) throw new ProjectError(`${what} must be a real date written YYYY-MM-DD, got '${shownValue(text)}'`, { hint: 'for example 2026-09-01' });
  if (text < EARLIEST_DATE || text > LATEST_DATE) throw outsideWorkableDates(what, text);
  return text;
}

const TIME_OF_DAY = /^(\d{4}-\d{2}-\d{2})[ T]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,6})?)?$/;

/**
 * An as-of a user gives: a date (as requireIsoDate) or a date and a time of
 * day, `YYYY-MM-DD HH:MM[:SS[.ffffff]]` (or with a T), for models whose
 * partitions are hours: returned as given (the var the templates read), a
 * date-time from YAML as `YYYY-MM-DD HH:MM:SS`. No time zone: an as-of is
 * compared as text with the feed's own loaded-at values.
 */
export function requireIsoDateOrTime(value: unknown, what: string): string {
  if (value instanceof Date && !Number.isNaN(value.getTime()) && value.getTime() % 86_400_000 !== 0) {
    return requireIsoDateOrTime(value.toISOString().slice(0, 19).replace('T', ' '), what);
  }
  const m = typeof value === 'string' ? TIME_OF_DAY.exec(value) : null;
  if (m) {
    requireIsoDate(m[1], what);
    return value as string;
  }
  if (value instanceof Date || isIsoDate(value)) return requireIsoDate(value, what);
  throw new ProjectError(`${what} must be a real date written YYYY-MM-DD (or a date and a time, YYYY-MM-DD HH:MM:SS), got '${shownValue(value)}'`, { hint: 'for example 2026-09-01 or 2026-09-01 06:00:00' });
}

/** The error for a real date mini-dbt cannot work with (its arithmetic would leave four-digit years). */
export function outsideWorkableDates(what: string, text: string): ProjectError {
  return new ProjectError(`${what} is ${text}, outside the dates mini-dbt works with (${EARLIEST_DATE} to ${LATEST_DATE})`);
}

/** Both ends of a range, validated, with start <= end. */
export function requireDateRange(start: unknown, end: unknown, names: readonly [string, string] = ['--start', '--end']): { start: string; end: string } {
  const s = requireIsoDate(start, names[0]);
  const e = requireIsoDate(end, names[1]);
  if (s > e) throw new ProjectError(`${names[0]} ${s} is after ${names[1]} ${e}`);
  return { start: s, end: e };
}

/** Both ends of a backfill's range: dates, months (`YYYY-MM`, monthly partitions) or dates and times of day (hourly ones), with start <= end. */
export function requireDateOrTimeRange(start: unknown, end: unknown, names: readonly [string, string] = ['--start', '--end']): { start: string; end: string } {
  const s = requirePartitionBound(start, names[0]);
  const e = requirePartitionBound(end, names[1]);
  if (s > e) throw new ProjectError(`${names[0]} ${s} is after ${names[1]} ${e}`);
  return { start: s, end: e };
}

/** One end of a backfill's range: a month, a date, or a date and a time of day. */
function requirePartitionBound(value: unknown, what: string): string {
  if (isIsoMonth(value)) return value;
  if (typeof value === 'string' && (TIME_OF_DAY.test(value) || isIsoDate(value))) return requireIsoDateOrTime(value, what);
  if (value instanceof Date) return requireIsoDateOrTime(value, what);
  throw new ProjectError(`${what} must be a real date written YYYY-MM-DD (or a month, YYYY-MM, or a date and a time, YYYY-MM-DD HH:MM:SS), got '${shownValue(value)}'`, { hint: 'for example 2026-09-01, 2026-09 or "2026-09-01 06:00:00"' });
}
