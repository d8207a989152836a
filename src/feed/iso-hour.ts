import { isIsoDate } from './iso-date.js';

/** A whole hour written as ISO text: `YYYY-MM-DD HH:00:00`, `YYYY-MM-DDTHH:00`, ... (minutes and seconds zero). */
const WHOLE_HOUR = /^(\d{4}-\d{2}-\d{2})([ T])([01]\d|2[0-3]):00(:00(?:\.0+)?)?$/;

/**
 * The whole hour after `text`, written the same way (same separator, same
 * seconds part), or undefined when `text` is not a whole hour of a real date:
 * hourly partitions are consecutive when one is the next hour of the other.
 */
export function nextWholeHour(text: string): string | undefined {
  const m = WHOLE_HOUR.exec(text);
  if (!m || !isIsoDate(m[1])) return undefined;
  const next = new Date(Date.parse(`${m[1]}T${m[3]}:00:00Z`) + 3_600_000).toISOString();
  return `${next.slice(0, 10)}${m[2]}${next.slice(11, 13)}:00${m[4] ?? ''}`;
}

/** Whether a partition value carries a time of day (an hourly partition), not just a date. */
export function hasTimeOfDay(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text);
}

/** How many whole hours from `first` to `last`, both counted (undefined unless both are whole hours written alike). */
export function wholeHourSpan(first: string, last: string): number | undefined {
  const a = WHOLE_HOUR.exec(first);
  const b = WHOLE_HOUR.exec(last);
  if (!a || !b || a[2] !== b[2] || a[4] !== b[4] || !isIsoDate(a[1]) || !isIsoDate(b[1])) return undefined;
  return Math.round((Date.parse(`${b[1]}T${b[3]}:00:00Z`) - Date.parse(`${a[1]}T${a[3]}:00:00Z`)) / 3_600_000) + 1;
}
