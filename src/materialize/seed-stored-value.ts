/**
 * What dbt-sqlite stores for a seed value agate reads as a date, a datetime
 * or a boolean, on an engine whose column types are only affinities
 * (`dialect.seedValues === 'python'`: SQLite). agate hands Python's
 * sqlite3 driver a `bool`, a `datetime.date` or a `datetime.datetime`, and
 * the driver binds a bool as the integer 1 or 0, a date as `isoformat()`
 * (`YYYY-MM-DD`) and a datetime as `isoformat(" ")` (`YYYY-MM-DD
 * HH:MM:SS`, then `.ffffff` only when the microseconds are not zero). So
 * ` True ` is stored as 1, `2024-1-5` as `2024-01-05`, `2024-01-05T10:00` as
 * `2024-01-05 10:00:00`. Values here are already classified (seed-types.ts):
 * the parsing only takes them apart.
 */
import { dialect } from '../engine/current-engine.js';
import type { SeedParam } from './seed-number-param.js';
import { ValueClass } from './seed-value-class.js';

const DATE_PARTS = /^[ \t]*([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})[ \t]*$/;
const TIMESTAMP_PARTS = /^[ \t]*([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})[ \t]+([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})[ \t]*$/;
const ISO_PARTS = /^[ \t]*([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}:[0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,6}))?)?[ \t]*$/;

const pad2 = (digits: string): string => (digits.length === 1 ? `0${digits}` : digits);

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/**
 * Whether a value already classified as a date is `YYYY-MM-DD` as written:
 * ten characters, starting with a digit (no blank), dashes at 4 and 7, a
 * two-digit day. Only the shape: the classification checked the calendar.
 */
function isStoredDateShape(value: string): boolean {
  return value.length === 10 && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45 && isDigit(value.charCodeAt(0)) && isDigit(value.charCodeAt(8)) && isDigit(value.charCodeAt(9));
}

/** Whether a value already classified as a timestamp (`sep` 32: a space; 84: ISO's `T`) is `YYYY-MM-DD<sep>HH:MM:SS`, every field two digits, no blank around it. */
function isTimestampShape(value: string, sep: number): boolean {
  return value.length === 19 && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45 && value.charCodeAt(10) === sep && value.charCodeAt(13) === 58 && value.charCodeAt(16) === 58
    && isDigit(value.charCodeAt(0)) && isDigit(value.charCodeAt(9)) && isDigit(value.charCodeAt(11)) && isDigit(value.charCodeAt(18));
}

/** A boolean value (`true` / `false` in any case, blanks around it) as Python's sqlite3 binds a bool. */
export function storedBoolean(value: string): number {
  const first = value.charCodeAt(0) === 32 || value.charCodeAt(0) === 9 ? value.trim().charCodeAt(0) : value.charCodeAt(0);
  return (first | 32) === 116 /* t */ ? 1 : 0;
}

/** A date (`%Y-%m-%d`, one-digit month or day, blanks around it) as `date.isoformat()`. */
export function storedDate(value: string): string {
  if (isStoredDateShape(value)) return value;
  const m = DATE_PARTS.exec(value);
  return m === null ? value : `${m[1]!}-${pad2(m[2]!)}-${pad2(m[3]!)}`;
}

/** A `%Y-%m-%d %H:%M:%S` timestamp as `datetime.isoformat(" ")`. */
export function storedTimestamp(value: string): string {
  if (isTimestampShape(value, 32)) return value;
  const m = TIMESTAMP_PARTS.exec(value);
  return m === null ? value : `${m[1]!}-${pad2(m[2]!)}-${pad2(m[3]!)} ${pad2(m[4]!)}:${pad2(m[5]!)}:${pad2(m[6]!)}`;
}

/** An ISO 8601 timestamp (`T`, seconds and fraction optional) as `datetime.isoformat(" ")` of what isodate parses. */
export function storedIsoTimestamp(value: string): string {
  if (isTimestampShape(value, 84)) return `${value.slice(0, 10)} ${value.slice(11)}`;
  const m = ISO_PARTS.exec(value);
  if (m === null) return value;
  const fraction = m[4] === undefined ? '' : m[4].padEnd(6, '0');
  return `${m[1]!} ${m[2]!}:${m[3] ?? '00'}${fraction === '' || fraction === '000000' ? '' : `.${fraction}`}`;
}

/**
 * How the values of a column inferred as `cls` are bound, where the engine
 * stores Python's values and the class is a date, timestamp or boolean;
 * undefined otherwise (the value as the CSV has it, or as a number).
 */
export function storedValueFor(cls: ValueClass | undefined): ((value: string) => SeedParam) | undefined {
  if (dialect.seedValues !== 'python') return undefined;
  switch (cls) {
    case ValueClass.Boolean:
      return storedBoolean;
    case ValueClass.Date:
      return storedDate;
    case ValueClass.Timestamp:
      return storedTimestamp;
    case ValueClass.IsoTimestamp:
      return storedIsoTimestamp;
    default:
      return undefined;
  }
}

/** Whether columns inferred as `a` and as `b` are written differently where the engine stores Python's values (their SQL types aside). */
export function storedFormsDiffer(a: ValueClass, b: ValueClass): boolean {
  return a !== b && dialect.seedValues === 'python' && (isStoredClass(a) || isStoredClass(b));
}

/** Date, Timestamp, IsoTimestamp or Boolean: the classes dbt-sqlite stores in a form of their own. */
function isStoredClass(cls: ValueClass): boolean {
  return cls >= ValueClass.Date && cls <= ValueClass.Boolean;
}
