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
 * outside the 64-bit range). Dates, timestamps and booleans get the
 * engine's types: PostgreSQL's date, timestamp and boolean; on SQLite
 * dbt-sqlite's TEXT, TEXT and INT, their values stored as dbt-sqlite's
 * Python driver stores them (booleans 1 and 0, dates and timestamps in ISO
 * form with a space: seed-stored-value.ts).
 */
import { dialect } from '../engine/current-engine.js';
import { classifyCalendarValue } from './seed-calendar-value.js';
import { ValueClass } from './seed-value-class.js';

/** The SQL type a seed column is inferred as: one of the engine's `types` (SQLite: INTEGER, REAL, TEXT, INT). */
export type InferredType = string;

/** How values of a declared (`column_types`) column are checked. */
export type ValueCheck = 'integer' | 'number' | 'text';

export { combineClasses, ValueClass } from './seed-value-class.js';

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

/**
 * Classify one non-null CSV value for inference. Integer-looking values with
 * a leading zero (`007`) or outside the 64-bit range are text: storing them as
 * numbers would change them.
 */
export function classifyValue(value: string): ValueClass {
  if (INFER_INTEGER.test(value)) return fitsInt32(value) ? ValueClass.Integer : fitsInt64(value) ? ValueClass.BigInteger : ValueClass.Text;
  if (INFER_NUMBER.test(value) && Number.isFinite(Number(value))) return ValueClass.Real;
  return classifyCalendarValue(value);
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
      return types.date;
    case ValueClass.Timestamp:
    case ValueClass.IsoTimestamp:
      return types.timestamp;
    case ValueClass.Boolean:
      return types.boolean;
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
