/**
 * Pure helpers for calendar dates written as ISO `YYYY-MM-DD` strings.
 *
 * All arithmetic is done in UTC on whole days, so results never depend on the
 * machine's time zone or on daylight-saving changes. Functions that take a
 * date throw a RangeError on anything that is not a real calendar date.
 */

const MS_PER_DAY = 86_400_000;

/**
 * The dates mini-dbt accepts from users: four-digit years, with the last
 * year left free so that the few days it computes past a given date (the
 * day after an as-of, a margin around a backfill range) never overflow.
 */
export const EARLIEST_DATE = '1000-01-01';
export const LATEST_DATE = '9998-12-31';
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `s` is a real calendar date written exactly as `YYYY-MM-DD`. */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear undoes that.
  d.setUTCFullYear(year);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Days since 1970-01-01 (UTC) of an ISO date. */
function toDayNumber(iso: string): number {
  if (!isIsoDate(iso)) throw new RangeError(`not an ISO date (YYYY-MM-DD): ${JSON.stringify(iso)}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  return Math.round(d.getTime() / MS_PER_DAY);
}

function fromDayNumber(dayNumber: number): string {
  const d = new Date(dayNumber * MS_PER_DAY);
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`date out of range (year ${year})`);
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(d.getUTCDate()).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${mm}-${dd}`;
}

/** The date `n` days after `iso` (`n` may be negative). */
export function addDays(iso: string, n: number): string {
  if (!Number.isInteger(n)) throw new RangeError(`addDays: n must be an integer, got ${n}`);
  return fromDayNumber(toDayNumber(iso) + n);
}

/** Whole days from `a` to `b`: positive when `b` is later, e.g. daysBetween('2026-09-01', '2026-09-04') === 3. */
export function daysBetween(a: string, b: string): number {
  return toDayNumber(b) - toDayNumber(a);
}

/** Every date from `a` to `b`, both included, in order; empty when `b` is before `a`. */
export function dateRange(a: string, b: string): string[] {
  const first = toDayNumber(a);
  const last = toDayNumber(b);
  const out: string[] = [];
  for (let day = first; day <= last; day++) out.push(fromDayNumber(day));
  return out;
}

/** Day of the week of an ISO date: 0 = Sunday, 1 = Monday, ... 6 = Saturday. */
export function dayOfWeek(iso: string): number {
  // 1970-01-01 was a Thursday (4).
  return (((toDayNumber(iso) + 4) % 7) + 7) % 7;
}
