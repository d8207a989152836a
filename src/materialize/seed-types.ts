/**
 * Value classification for seeds: type inference over every CSV value and
 * validation of values against a `column_types` override.
 *
 * Inference follows dbt's (agate's type tester, then the adapter's types):
 * a column gets the first type that reads every non-null value — a number,
 * a date (YYYY-MM-DD), a timestamp (YYYY-MM-DD HH:MM:SS), an ISO 8601
 * timestamp (YYYY-MM-DDTHH:MM...), a boolean (true/false in any case) —
 * else text. Numbers stay lossless, unlike agate's: a column becomes a
 * number only when storing it as one cannot change what the CSV says (no
 * leading zeros, no `+` sign, no currency or group symbols, no integer
 * outside the 64-bit range). Dates, timestamps and booleans are typed only
 * where the engine has such types (PostgreSQL); on SQLite they are text.
 */
import { dialect } from '../engine/current-engine.js';

/** The SQL type a seed column is inferred as: one of the engine's `types` (SQLite: INTEGER, REAL, TEXT). */
export type InferredType = string;

/** How values of a declared (`column_types`) column are checked. */
export type ValueCheck = 'integer' | 'number' | 'text';

/**
 * Inference state of a column. The numbers are ordered, and two of them
 * combine to the wider (`Math.max`); any other two different states combine
 * to text (a column of dates and booleans is text, as in agate).
 */
export const ValueClass = {
  None: 0,
  /** A whole number within 32 bits. */
  Integer: 1,
  /** A whole number beyond 32 bits, within 64. */
  BigInteger: 2,
  Real: 3,
  Date: 4,
  /** YYYY-MM-DD HH:MM:SS (agate's DateTime with dbt's format). */
  Timestamp: 5,
  /** YYYY-MM-DDTHH:MM[:SS[.ffffff]] (dbt's ISODateTime). */
  IsoTimestamp: 6,
  Boolean: 7,
  Text: 8,
} as const;
export type ValueClass = (typeof ValueClass)[keyof typeof ValueClass];

/** The state of a column that was `state` and then showed a value of class `cls`. */
export function combineClasses(state: ValueClass, cls: ValueClass): ValueClass {
  if (state === cls || cls === ValueClass.None) return state;
  if (state === ValueClass.None) return cls;
  if (state <= ValueClass.Real && cls <= ValueClass.Real) return state > cls ? state : cls;
  return ValueClass.Text;
}

/** Empty fields and the literal `null` load as SQL NULL. */
export function isSeedNull(value: string): boolean {
  return value === '' || value === 'null';
}

const INFER_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const INFER_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const DECLARED_INTEGER = /^[+-]?[0-9]+$/;
const DECLARED_NUMBER = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

const INT64_MAX = '9223372036854775807';
const INT64_MIN_ABS = '9223372036854775808';
const INT32_MAX = '2147483647';
const INT32_MIN_ABS = '2147483648';

/** Whether an optionally signed string of decimal digits fits in a signed 64-bit integer. */
function fitsInt64(text: string): boolean {
  let start = 0;
  let negative = false;
  if (text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    start = 1;
  } else if (text.charCodeAt(0) === 43 /* + */) {
    start = 1;
  }
  while (start < text.length - 1 && text.charCodeAt(start) === 48 /* 0 */) start++;
  const digits = text.length - start;
  if (digits < 19) return true;
  if (digits > 19) return false;
  const abs = start === 0 ? text : text.slice(start);
  return abs <= (negative ? INT64_MIN_ABS : INT64_MAX);
}

/** Whether an inferred integer (no sign but `-`, no leading zero) fits in a signed 32-bit integer. */
function fitsInt32(text: string): boolean {
  const negative = text.charCodeAt(0) === 45;
  const digits = negative ? text.length - 1 : text.length;
  if (digits < 10) return true;
  if (digits > 10) return false;
  return (negative ? text.slice(1) : text) <= (negative ? INT32_MIN_ABS : INT32_MAX);
}

/** Python's strptime `%Y-%m-%d`: four-digit year, one- or two-digit month and day (agate's Date with dbt's format). */
const DATE = /^[ \t]*([0-9]{4})-(1[0-2]|0[1-9]|[1-9])-(3[01]|[12][0-9]|0[1-9]|[1-9])[ \t]*$/;
/** `%Y-%m-%d %H:%M:%S`: hours 0-23, minutes and seconds 0-59, one or two digits each, no fraction. */
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

/** Whether year-month-day (already in 1-12 and 1-31) is a day of the proleptic Gregorian calendar, year 1 on. */
function isCalendarDay(year: string, month: string, day: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1) return false;
  if (m === 2 && d === 29) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= MONTH_DAYS[m - 1]!;
}

/** The class of a value that is not a number: a date, a timestamp, a boolean, else text. */
function classifyOther(value: string): ValueClass {
  const first = value.charCodeAt(0);
  let m: RegExpExecArray | null;
  // Dates and timestamps start with a digit (or the blanks agate strips).
  if ((first >= 48 && first <= 57) || first === 32 || first === 9) {
    if ((m = DATE.exec(value)) !== null) return isCalendarDay(m[1]!, m[2]!, m[3]!) ? ValueClass.Date : ValueClass.Text;
    if ((m = TIMESTAMP.exec(value)) !== null) return isCalendarDay(m[1]!, m[2]!, m[3]!) ? ValueClass.Timestamp : ValueClass.Text;
    if ((m = ISO_TIMESTAMP.exec(value)) !== null) return isCalendarDay(m[1]!, m[2]!, m[3]!) ? ValueClass.IsoTimestamp : ValueClass.Text;
  }
  return BOOLEAN.test(value) ? ValueClass.Boolean : ValueClass.Text;
}

/**
 * Classify one non-null CSV value for inference. Integer-looking values with
 * a leading zero (`007`) or outside the 64-bit range are text: storing them as
 * numbers would change them. Without `calendar` (an engine with no date,
 * timestamp or boolean types) everything but a number is text.
 */
export function classifyValue(value: string, calendar = false): ValueClass {
  if (INFER_INTEGER.test(value)) return fitsInt32(value) ? ValueClass.Integer : fitsInt64(value) ? ValueClass.BigInteger : ValueClass.Text;
  if (INFER_NUMBER.test(value) && Number.isFinite(Number(value))) return ValueClass.Real;
  return calendar ? classifyOther(value) : ValueClass.Text;
}

/** Whether the engine types dates, timestamps and booleans (else they are text). */
export function engineTypesCalendar(): boolean {
  const { date, timestamp, boolean } = dialect.types;
  return date !== undefined && timestamp !== undefined && boolean !== undefined;
}

/** The SQL type for a column whose values combined to `state`. */
export function inferredType(state: ValueClass): InferredType {
  const types = dialect.types;
  switch (state) {
    case ValueClass.None:
      return types.empty ?? types.text;
    case ValueClass.Integer:
      return types.integer;
    case ValueClass.BigInteger:
      return types.bigInteger ?? types.integer;
    case ValueClass.Real:
      return types.real;
    case ValueClass.Date:
      return types.date ?? types.text;
    case ValueClass.Timestamp:
    case ValueClass.IsoTimestamp:
      return types.timestamp ?? types.text;
    case ValueClass.Boolean:
      return types.boolean ?? types.text;
    default:
      return types.text;
  }
}

const SAFE_SQL_TYPE = /^[A-Za-z][A-Za-z0-9_]*(?:[ \t]+[A-Za-z][A-Za-z0-9_]*)*[ \t]*(?:\([ \t]*[+-]?[0-9]+[ \t]*(?:,[ \t]*[+-]?[0-9]+[ \t]*)?\))?$/;

/** Whether a `column_types` type is a plain SQL type name (it is pasted into the DDL). */
export function isSafeSqlType(type: string): boolean {
  return SAFE_SQL_TYPE.test(type.trim());
}

/**
 * How values of a declared type are validated: by the engine's family of
 * the type (SQLite: any type containing INT is an integer; REAL/FLOAT/DOUBLE
 * a real), and NUMERIC/DECIMAL/NUMBER as numbers; anything else (dates,
 * booleans, PostgreSQL's interval or point) is loaded as given, for the
 * database to read.
 */
export function declaredTypeCheck(type: string): ValueCheck {
  const affinity = dialect.typeAffinity(type);
  if (affinity === 'INTEGER') return 'integer';
  if (affinity === 'REAL' || /NUMERIC|DECIMAL|NUMBER/.test(type.toUpperCase())) return 'number';
  return 'text';
}

/** Whether a non-null value fits a declared type's check. */
export function fitsDeclaredType(value: string, check: ValueCheck): boolean {
  if (check === 'integer') return DECLARED_INTEGER.test(value) && fitsInt64(value);
  if (check === 'number') return DECLARED_NUMBER.test(value) && Number.isFinite(Number(value));
  return true;
}

/** ASCII case folding, the way SQLite compares identifiers. */
export function foldIdentifier(name: string): string {
  return name.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}
