import { ProjectError } from '../errors/project-error.js';
import { isIsoDate } from '../feed/iso-date.js';

/**
 * A date given on the command line (or in --vars) that must be a real
 * calendar date written YYYY-MM-DD. Anything else, including text that
 * merely starts with a date, is a ProjectError (exit 2).
 */
export function requireIsoDate(value: unknown, what: string): string {
  const text: string = typeof value === 'string' ? value : value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
  if (isIsoDate(text)) return text;
  const shown: string = String(text);
  const cut = shown.length > 60 ? `${shown.slice(0, 57)}...` : shown;
  throw new ProjectError(`${what} must be a real date written YYYY-MM-DD, got '${cut}'`, { hint: 'for example 2026-09-01' });
}

/** Both ends of a range, validated, with start <= end. */
export function requireDateRange(start: unknown, end: unknown, names: readonly [string, string] = ['--start', '--end']): { start: string; end: string } {
  const s = requireIsoDate(start, names[0]);
  const e = requireIsoDate(end, names[1]);
  if (s > e) throw new ProjectError(`${names[0]} ${s} is after ${names[1]} ${e}`);
  return { start: s, end: e };
}
