/**
 * The seed values agate's type tester reads as dates, timestamps and
 * booleans with dbt's types (dbt-common's agate_helper): Date with strptime's
 * `%Y-%m-%d`, DateTime with `%Y-%m-%d %H:%M:%S`, ISODateTime (isodate's ISO
 * 8601, `T` between date and time), Boolean with `true` / `false` in any
 * case; blanks around a value are stripped, as agate strips them. Every form
 * accepted here is one PostgreSQL reads as that type (the COPY sends values
 * as written).
 *
 * The common forms (`2024-01-05`, `2024-01-05 10:00:00`,
 * `2024-01-05T10:00:00`, `true`) are recognised by their characters, without
 * a regular expression: a date column checks every one of its values.
 */
import { ValueClass } from './seed-value-class.js';

/** Python's strptime `%Y-%m-%d`: four-digit year, one- or two-digit month and day. */
const DATE = /^[ \t]*([0-9]{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12][0-9]|0[1-9]|[1-9])[ \t]*$/;
/** `%Y-%m-%d %H:%M:%S` (strptime's space matches any run of blanks): hours 0-23, minutes and seconds 0-59, one or two digits each, no fraction. */
const TIMESTAMP = /^[ \t]*([0-9]{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12][0-9]|0[1-9]|[1-9])[ \t]+(?:2[0-3]|[01][0-9]|[0-9]):(?:[0-5][0-9]|[0-9]):(?:[0-5][0-9]|[0-9])[ \t]*$/;
/**
 * ISO 8601 as isodate parses it, in the extended form PostgreSQL reads too:
 * YYYY-MM-DDTHH:MM, then :SS, then .ffffff (at most microseconds,
 * PostgreSQL's precision). Text: a time zone (a timestamp without time zone
 * would drop the offset), an hour alone (PostgreSQL refuses it), week and
 * ordinal dates, ISO's basic form without separators.
 */
const ISO_TIMESTAMP = /^[ \t]*([0-9]{4})-(1[0-2]|0[1-9])-(3[01]|[12][0-9]|0[1-9])T(?:2[0-3]|[01][0-9]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,6})?)?[ \t]*$/;
const BOOLEAN = /^[ \t]*(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])[ \t]*$/;

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether year-month-day (month 1-12) is a day of the proleptic Gregorian calendar, year 1 on. */
function isCalendarDay(y: number, m: number, d: number): boolean {
  if (y < 1 || d < 1) return false;
  if (m === 2 && d === 29) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= MONTH_DAYS[m - 1]!;
}

/** The number written by the `count` digits at `from`, or -1 when one is not a digit. */
function digitsAt(value: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** `YYYY-MM-DD` at the start of the value, a real day (two-digit month and day). */
function isPlainDate(value: string): boolean {
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  const m = digitsAt(value, 5, 2);
  return m >= 1 && m <= 12 && isCalendarDay(digitsAt(value, 0, 4), m, digitsAt(value, 8, 2));
}

/** `HH:MM:SS` at 11 (after the date and its separator): hours 0-23, minutes and seconds 0-59. */
function isPlainTime(value: string): boolean {
  if (value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return false;
  const h = digitsAt(value, 11, 2);
  const mi = digitsAt(value, 14, 2);
  const s = digitsAt(value, 17, 2);
  return h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59;
}

/** The class of the common forms, by their characters; None when the value is in none of them. */
function plainClass(value: string): ValueClass {
  const n = value.length;
  if (n === 10) return isPlainDate(value) ? ValueClass.Date : ValueClass.None;
  if (n === 19) {
    const separator = value.charCodeAt(10);
    if (separator !== 32 && separator !== 84 /* T */) return ValueClass.None;
    if (!isPlainDate(value) || !isPlainTime(value)) return ValueClass.None;
    return separator === 32 ? ValueClass.Timestamp : ValueClass.IsoTimestamp;
  }
  if (n === 4) {
    return (value.charCodeAt(0) | 32) === 116 && (value.charCodeAt(1) | 32) === 114 && (value.charCodeAt(2) | 32) === 117 && (value.charCodeAt(3) | 32) === 101
      ? ValueClass.Boolean : ValueClass.None;
  }
  if (n === 5) {
    return (value.charCodeAt(0) | 32) === 102 && (value.charCodeAt(1) | 32) === 97 && (value.charCodeAt(2) | 32) === 108 && (value.charCodeAt(3) | 32) === 115 && (value.charCodeAt(4) | 32) === 101
      ? ValueClass.Boolean : ValueClass.None;
  }
  return ValueClass.None;
}

/** The class of a value that is not a number: Date, Timestamp, IsoTimestamp, Boolean, else Text. */
export function classifyCalendarValue(value: string): ValueClass {
  const plain = plainClass(value);
  if (plain !== ValueClass.None) return plain;
  const first = value.charCodeAt(0);
  let m: RegExpExecArray | null;
  // Dates and timestamps start with a digit (or the blanks agate strips).
  if ((first >= 48 && first <= 57) || first === 32 || first === 9) {
    if ((m = DATE.exec(value)) !== null) return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) ? ValueClass.Date : ValueClass.Text;
    if ((m = TIMESTAMP.exec(value)) !== null) return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) ? ValueClass.Timestamp : ValueClass.Text;
    if ((m = ISO_TIMESTAMP.exec(value)) !== null) return isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3])) ? ValueClass.IsoTimestamp : ValueClass.Text;
  }
  return BOOLEAN.test(value) ? ValueClass.Boolean : ValueClass.Text;
}

/**
 * Whether a value is in a common form of class `cls` (a date column's next
 * date): true means its class is `cls`; false says nothing (classify it).
 */
export function isPlainValueOf(value: string, cls: ValueClass): boolean {
  return plainClass(value) === cls;
}
