import { afterEach, describe, expect, it } from 'vitest';
import { useTargetEngine } from '../../../src/engine/current-engine.js';
import { FILE_TARGET } from '../../../src/project/target.js';
import { classifyCalendarValue, isPlainValueOf } from '../../../src/materialize/seed-calendar-value.js';
import { classifyValue, combineClasses, declaredTypeCheck, inferredType, ValueClass } from '../../../src/materialize/seed-types.js';

/**
 * Which values agate's type tester (with dbt's types: Number, Date
 * `%Y-%m-%d`, DateTime `%Y-%m-%d %H:%M:%S`, ISODateTime, Boolean true/false)
 * reads as what, as mini-dbt classifies them, on either engine (SQLite
 * stores the dates, timestamps and booleans as dbt-sqlite does:
 * seed-stored-value.ts).
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
  ])('%j is %i', (value, cls) => {
    expect(classifyValue(value)).toBe(cls);
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
  ])('%j is %i', (value, cls) => {
    expect(classifyValue(value)).toBe(cls);
  });
});

describe('the common forms, recognised by their characters', () => {
  /** An independent reading: a real day (JavaScript's calendar, years 1 to 9999) and a time of day. */
  const realDay = (y: number, m: number, d: number): boolean => {
    if (y < 1 || m < 1 || m > 12 || d < 1) return false;
    const date = new Date(Date.UTC(2000, m - 1, d));
    date.setUTCFullYear(y);
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  };
  const oracle = (v: string): ValueClass => {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:([ T])(\d{2}):(\d{2}):(\d{2}))?$/.exec(v);
    if (m) {
      if (!realDay(Number(m[1]), Number(m[2]), Number(m[3]))) return ValueClass.Text;
      if (m[4] === undefined) return ValueClass.Date;
      if (Number(m[5]) > 23 || Number(m[6]) > 59 || Number(m[7]) > 59) return ValueClass.Text;
      return m[4] === ' ' ? ValueClass.Timestamp : ValueClass.IsoTimestamp;
    }
    return /^(true|false)$/i.test(v) ? ValueClass.Boolean : ValueClass.Text;
  };

  it('agree with the full reading on random values of those shapes (days of every month, leap years, bad fields)', () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const two = (n: number): string => String(n).padStart(2, '0');
    const chars = '0123456789-: Ttrueflsa';
    for (let i = 0; i < 20_000; i++) {
      let v: string;
      const shape = random(4);
      if (shape === 0) v = `${String(random(10_000)).padStart(4, '0')}-${two(random(14))}-${two(random(33))}`;
      else if (shape === 1) v = `${String(1 + random(2400)).padStart(4, '0')}-${two(1 + random(12))}-${two(random(32))}${random(2) ? ' ' : 'T'}${two(random(26))}:${two(random(62))}:${two(random(62))}`;
      else if (shape === 2) v = ['true', 'TRUE', 'False', 'fAlSe', 'trUE', 'tru', 'falsy', 'f1lse'][random(8)]!;
      else v = Array.from({ length: [4, 5, 10, 19][random(4)]! }, () => chars[random(chars.length)]).join('');
      // Random characters may spell a form only the regular expressions read (`2024-1-5  `): those only check the implication below.
      if (shape < 3) expect(classifyCalendarValue(v), v).toBe(oracle(v));
      for (const cls of [ValueClass.Date, ValueClass.Timestamp, ValueClass.IsoTimestamp, ValueClass.Boolean]) {
        if (isPlainValueOf(v, cls)) expect(oracle(v), v).toBe(cls);
      }
    }
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

  it("SQLite: INTEGER, REAL, TEXT, dbt-sqlite's INT for booleans; its affinity rules for declared types", () => {
    expect([ValueClass.None, ValueClass.Integer, ValueClass.BigInteger, ValueClass.Real, ValueClass.Date, ValueClass.Timestamp, ValueClass.IsoTimestamp, ValueClass.Boolean, ValueClass.Text].map((c) => inferredType(c)))
      .toEqual(['TEXT', 'INTEGER', 'INTEGER', 'REAL', 'TEXT', 'TEXT', 'TEXT', 'INT', 'TEXT']);
    expect(['INTEGER', 'BIGINT', 'REAL', 'DOUBLE', 'FLOAT', 'NUMERIC(12,2)', 'DECIMAL', 'TEXT', 'DATE', 'BOOLEAN', 'POINT'].map(declaredTypeCheck))
      .toEqual(['integer', 'integer', 'number', 'number', 'number', 'number', 'number', 'text', 'text', 'text', 'integer']);
  });
});
