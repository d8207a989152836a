import { ProjectError } from '../errors/project-error.js';
import { shownValue } from './require-iso-date.js';

/** The longest lookback (or backfill span in days) mini-dbt accepts: a hundred years. */
export const MAX_DAYS = 36_500;

/**
 * A number of days a user gives (lookback_days, --lookback,
 * --weekly-backfill): a whole number from 0 to MAX_DAYS, as a number or as
 * digits. A negative one would put a window's start after its end (nothing
 * is rewritten) and a huge one would leave the calendar; both are refused.
 */
export function requireWholeDays(value: unknown, what: string): number {
  const digits = typeof value === 'number' ? Number.isInteger(value) && value >= 0 : typeof value === 'string' && /^\d{1,9}$/.test(value.trim());
  const n = Number(value);
  if (!digits || n > MAX_DAYS) throw new ProjectError(`${what} must be a whole number of days from 0 to ${MAX_DAYS}, got '${shownValue(value)}'`);
  return n;
}
