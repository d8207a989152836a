/**
 * Value classification for seeds: type inference over every CSV value and
 * validation of values against a `column_types` override.
 *
 * Inference is deliberately lossless: a column becomes INTEGER or REAL only
 * when storing it as a number cannot change what the CSV says (no leading
 * zeros, no `+` sign, no integer outside the 64-bit range).
 */
import { dialect } from '../engine/current-engine.js';

/** The type a seed column is inferred as: the engine's integer, real or text type (SQLite: INTEGER, REAL, TEXT). */
export type InferredType = string;

/** How values of a declared (`column_types`) column are checked. */
export type ValueCheck = 'integer' | 'number' | 'text';

/**
 * Inference state of a column, ordered so that combining two observations is
 * `Math.max`: nothing seen yet < integer < real < text.
 */
export const ValueClass = { None: 0, Integer: 1, Real: 2, Text: 3 } as const;
export type ValueClass = (typeof ValueClass)[keyof typeof ValueClass];

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

/**
 * Classify one non-null CSV value for inference. Integer-looking values with
 * a leading zero (`007`) or outside the 64-bit range are text: storing them as
 * numbers would change them.
 */
export function classifyValue(value: string): ValueClass {
  if (INFER_INTEGER.test(value)) return fitsInt64(value) ? ValueClass.Integer : ValueClass.Text;
  if (INFER_NUMBER.test(value) && Number.isFinite(Number(value))) return ValueClass.Real;
  return ValueClass.Text;
}

/** The SQL type for a column whose values combined to `state`; all-NULL columns are TEXT. */
export function inferredType(state: ValueClass): InferredType {
  if (state === ValueClass.Integer) return dialect.types.integer;
  if (state === ValueClass.Real) return dialect.types.real;
  return dialect.types.text;
}

const SAFE_SQL_TYPE = /^[A-Za-z][A-Za-z0-9_]*(?:[ \t]+[A-Za-z][A-Za-z0-9_]*)*[ \t]*(?:\([ \t]*[+-]?[0-9]+[ \t]*(?:,[ \t]*[+-]?[0-9]+[ \t]*)?\))?$/;

/** Whether a `column_types` type is a plain SQL type name (it is pasted into the DDL). */
export function isSafeSqlType(type: string): boolean {
  return SAFE_SQL_TYPE.test(type.trim());
}

/**
 * How values of a declared type are validated. Follows SQLite's affinity
 * rules for integers (any type containing INT), and treats REAL/FLOAT/DOUBLE/
 * NUMERIC/DECIMAL/NUMBER as numbers; anything else is loaded as given.
 */
export function declaredTypeCheck(type: string): ValueCheck {
  const upper = type.toUpperCase();
  if (upper.includes('INT')) return 'integer';
  if (/REAL|FLOA|DOUB|NUMERIC|DECIMAL|NUMBER/.test(upper)) return 'number';
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
