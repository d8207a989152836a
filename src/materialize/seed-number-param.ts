/**
 * Seed values are CSV text; a column with INTEGER, REAL or NUMERIC affinity
 * makes SQLite convert each one to a number on insert. Binding the number
 * instead skips that conversion (about a quarter of a large load's insert
 * time), but only where JavaScript's Number() gives exactly the value
 * SQLite's conversion would store: short decimal literals (at most 15
 * characters, so at most 15 significant digits: both conversions are then
 * correctly rounded and agree), never -0. Anything else stays text and
 * SQLite converts it as before. A property test compares both on random
 * values.
 */
import { dialect } from '../engine/current-engine.js';
import type { TypeAffinity } from '../engine/dialect.js';

/** A bound value: the CSV text, or the number SQLite would have made of it. */
export type SeedParam = string | number;

const SHORT_DECIMAL = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;

/** The engine's family of a declared column type (SQLite: its affinity, datatype3.html section 3.1). */
export function columnAffinity(type: string): TypeAffinity {
  return dialect.typeAffinity(type);
}

/** How a column's non-null values are bound: as numbers when the affinity converts them anyway. */
export function numberParamFor(type: string): ((value: string) => SeedParam) | undefined {
  const affinity = columnAffinity(type);
  return affinity === 'INTEGER' || affinity === 'REAL' || affinity === 'NUMERIC' ? numberParam : undefined;
}

/** The value as the number SQLite's numeric affinity would store, or the text when that is not certain. */
export function numberParam(value: string): SeedParam {
  if (value.length > 15 || !SHORT_DECIMAL.test(value)) return value;
  const n = Number(value);
  return Object.is(n, -0) ? value : n;
}
