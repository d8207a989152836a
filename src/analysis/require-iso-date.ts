import { ProjectError } from '../errors/project-error.js';
import { isIsoDate } from '../feed/iso-date.js';

/**
 * A date given on the command line (or in --vars) that must be a real
 * calendar date written YYYY-MM-DD. Anything else, including text that
 * merely starts with a date, is a ProjectError (exit 2).
 */
export function requireIsoDate(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
  if (isIsoDate(text)) return text;
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  throw new ProjectError(`${what} must be a real date written YYYY-MM-DD, got '${shown}'`, { hint: 'for example 2026-09-01' });
}

/** Both ends of a range, validated, with start <= end. */
export function requireDateRange(start: unknown, end: unknown, names: readonly [string, string] = ['--start', '--end']): { start: string; end: string } {
  const s = requireIsoDate(start, names[0]);
  const e = requireIsoDate(end, names[1]);
  if (s > e) throw new ProjectError(`${names[0]} ${s} is after ${names[1]} ${e}`);
  return { start: s, end: e };
}
