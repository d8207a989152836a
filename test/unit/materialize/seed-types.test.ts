import { afterEach, describe, expect, it } from 'vitest';
import { useTargetEngine } from '../../../src/engine/current-engine.js';
import { FILE_TARGET } from '../../../src/project/target.js';
import { classifyValue, combineClasses, declaredTypeCheck, inferredType, ValueClass } from '../../../src/materialize/seed-types.js';

/**
 * Which values agate's type tester (with dbt's types: Number, Date
 * `%Y-%m-%d`, DateTime `%Y-%m-%d %H:%M:%S`, ISODateTime, Boolean true/false)
 * reads as what, as mini-dbt classifies them: with `calendar` (PostgreSQL)
 * and without (SQLite).
 */
const PG = { type: 'postgres' as const, schema: 'public', postgres: { host: 'localhost', port: 5432, user: 'u', password: '', dbname: 'd', connectTimeout: 10 } };

afterEach(() => {
  useTargetEngine(FILE_TARGET);
});

describe('classifyValue', () => {
  it.each([
    ['0', ValueClass.Integer], ['-5', ValueClass.Integer], ['2147483647', ValueClass.Integer], ['-2147483648', ValueClass.Integer],
    ['2147483648', ValueClass.BigInteger], ['-2147483649', ValueClass.BigInteger], ['9223372036854775807', ValueClass.BigInteger],
    ['9223372036854775808', ValueClass.Text], ['007', ValueClass.Text], ['+5', ValueClass.Text], [' 5', ValueClass.Text], ['1,000', ValueClass.Text],
    ['19.99', ValueClass.Real], ['-1.25e3', ValueClass.Real], ['10.00', ValueClass.Real],
  ])('%j is %i on either engine', (value, cls) => {
    expect(classifyValue(value, true)).toBe(cls);
    expect(classifyValue(value, false)).toBe(cls);
  });

  it.each([
    ['2024-01-05', ValueClass.Date], ['2024-1-5', ValueClass.Date], [' 2024-01-05 ', ValueClass.Date], ['2024-02-29', ValueClass.Date], ['2000-02-29', ValueClass.Date],
    ['2023-02-29', ValueClass.Text], ['1900-02-29', ValueClass.Text], ['2024-02-30', ValueClass.Text], ['2024-04-31', ValueClass.Text], ['2024-13-01', ValueClass.Text],
    ['2024-00-10', ValueClass.Text], ['0000-01-01', ValueClass.Text], ['24-01-05', ValueClass.Text], ['2024/01/05', ValueClass.Text], ['05-01-2024', ValueClass.Text],
    ['2024-01-05 10:00:00', ValueClass.Timestamp], ['2024-1-5 1:2:3', ValueClass.Timestamp], ['2024-01-05  23:59:59', ValueClass.Timestamp],
    ['2024-01-05 24:00:00', ValueClass.Text], ['2024-01-05 10:00:60', ValueClass.Text], ['2024-01-05 10:00', ValueClass.Text], ['2024-01-05 10:00:00.5', ValueClass.Text],
    ['2024-01-05T10:00:00', ValueClass.IsoTimestamp], ['2024-01-05T10:00', ValueClass.IsoTimestamp], ['2024-01-05T10:00:00.123456', ValueClass.IsoTimestamp],
    ['2024-01-05T10', ValueClass.Text], ['2024-01-05T10:00:00Z', ValueClass.Text], ['2024-01-05T10:00:00+02:00', ValueClass.Text], ['2024-01-05T10:00:00.1234567', ValueClass.Text],
    ['2024-1-05T10:00:00', ValueClass.Text], ['20240105T100000', ValueClass.Text], ['2024-01-05t10:00:00', ValueClass.Text],
    ['true', ValueClass.Boolean], ['FALSE', ValueClass.Boolean], ['True', ValueClass.Boolean], [' false ', ValueClass.Boolean],
    ['t', ValueClass.Text], ['yes', ValueClass.Text], ['truee', ValueClass.Text], ['apple', ValueClass.Text],
  ])('%j is %i on PostgreSQL, text on SQLite', (value, cls) => {
    expect(classifyValue(value, true)).toBe(cls);
    expect(classifyValue(value, false)).toBe(ValueClass.Text);
  });
});

describe('combineClasses', () => {
  it('numbers widen; two different other classes, or a number and another, are text; nothing seen yet takes what comes', () => {
    expect(combineClasses(ValueClass.Integer, ValueClass.Real)).toBe(ValueClass.Real);
    expect(combineClasses(ValueClass.BigInteger, ValueClass.Integer)).toBe(ValueClass.BigInteger);
    expect(combineClasses(ValueClass.None, ValueClass.Date)).toBe(ValueClass.Date);
    expect(combineClasses(ValueClass.Date, ValueClass.None)).toBe(ValueClass.Date);
    expect(combineClasses(ValueClass.Date, ValueClass.Date)).toBe(ValueClass.Date);
    expect(combineClasses(ValueClass.Date, ValueClass.Timestamp)).toBe(ValueClass.Text);
    expect(combineClasses(ValueClass.Timestamp, ValueClass.IsoTimestamp)).toBe(ValueClass.Text);
    expect(combineClasses(ValueClass.Integer, ValueClass.Boolean)).toBe(ValueClass.Text);
    expect(combineClasses(ValueClass.Boolean, ValueClass.Integer)).toBe(ValueClass.Text);
    expect(combineClasses(ValueClass.Real, ValueClass.Date)).toBe(ValueClass.Text);
  });
});

describe('inferredType and declaredTypeCheck per engine', () => {
  it('PostgreSQL: dbt-postgres\'s types', () => {
    useTargetEngine(PG);
    expect([ValueClass.None, ValueClass.Integer, ValueClass.BigInteger, ValueClass.Real, ValueClass.Date, ValueClass.Timestamp, ValueClass.IsoTimestamp, ValueClass.Boolean, ValueClass.Text].map((c) => inferredType(c)))
      .toEqual(['integer', 'integer', 'bigint', 'float8', 'date', 'timestamp without time zone', 'timestamp without time zone', 'boolean', 'text']);
    // Declared types are checked by their family: interval and point hold "int" but are not integers.
    expect(['integer', 'int8', 'numeric(12,2)', 'float8', 'double precision', 'interval', 'point', 'date', 'boolean', 'text'].map(declaredTypeCheck))
      .toEqual(['integer', 'integer', 'number', 'number', 'number', 'text', 'text', 'text', 'text', 'text']);
  });

  it('SQLite: INTEGER, REAL, TEXT; its affinity rules for declared types', () => {
    expect([ValueClass.None, ValueClass.Integer, ValueClass.BigInteger, ValueClass.Real, ValueClass.Date, ValueClass.Boolean, ValueClass.Text].map((c) => inferredType(c)))
      .toEqual(['TEXT', 'INTEGER', 'INTEGER', 'REAL', 'TEXT', 'TEXT', 'TEXT']);
    expect(['INTEGER', 'BIGINT', 'REAL', 'DOUBLE', 'FLOAT', 'NUMERIC(12,2)', 'DECIMAL', 'TEXT', 'DATE', 'BOOLEAN', 'POINT'].map(declaredTypeCheck))
      .toEqual(['integer', 'integer', 'number', 'number', 'number', 'number', 'number', 'text', 'text', 'text', 'integer']);
  });
});
