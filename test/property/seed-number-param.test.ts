/**
 * A seed value bound as a number (seed-number-param.ts) is stored exactly
 * as SQLite stores the CSV text in a column of the same type: same storage
 * class, same value bit for bit, on random numeric-looking text.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberParamFor } from '../../src/materialize/seed-number-param.js';

const TYPES = ['INTEGER', 'REAL', 'NUMERIC', 'DECIMAL(10,2)', 'BIGINT', 'DOUBLE', 'TEXT', 'BLOB', ''];

const digits = fc.stringMatching(/^[0-9]{1,17}$/);
const numericText = fc.oneof(
  fc.tuple(fc.constantFrom('', '+', '-'), digits, fc.constantFrom('', '.'), fc.stringMatching(/^[0-9]{0,9}$/)).map(([s, a, d, b]) => `${s}${a}${d}${b}`),
  fc.tuple(fc.constantFrom('', '-'), fc.stringMatching(/^[0-9]{0,3}$/)).map(([s, b]) => `${s}.${b}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).chain((d) => fc.constantFrom(String(d), d.toFixed(2), d.toPrecision(15), d.toPrecision(17), d.toExponential(3))),
  fc.integer().map(String),
  fc.constantFrom('0', '-0', '-0.0', '0.0', '00.5', '007', '5.', '.5', '+.5', '1e5', '9007199254740993', '123456789012345', '-123456789012345', '0.1', '0.30000000000000004', ' 5', '5 ', '0x10', ''),
  fc.stringMatching(/^[0-9.+\-eE ]{0,16}$/),
);

function stored(db: Database.Database, type: string, value: unknown): { kind: string; value: unknown } {
  db.exec(`drop table if exists t; create table t (x ${type})`);
  db.prepare('insert into t values (?)').run(value);
  const row = db.prepare('select typeof(x) as kind, x as value from t').safeIntegers(true).get() as { kind: string; value: unknown };
  return row;
}

describe('seed values bound as numbers', () => {
  it('are stored as SQLite stores the text, in every column type', () => {
    const db = new Database(':memory:');
    let converted = 0;
    fc.assert(
      fc.property(numericText, fc.constantFrom(...TYPES), (text, type) => {
        const param = numberParamFor(type)?.(text) ?? text;
        if (typeof param === 'number') converted += 1;
        const asText = stored(db, type, text);
        const asParam = stored(db, type, param);
        expect(asParam.kind, `${JSON.stringify(text)} in ${type}`).toBe(asText.kind);
        expect(Object.is(asParam.value, asText.value) || asParam.value === asText.value, `${JSON.stringify(text)} in ${type}: ${String(asParam.value)} vs ${String(asText.value)}`).toBe(true);
      }),
      { seed: 20261202, numRuns: 20_000 },
    );
    expect(converted).toBeGreaterThan(2_000);
  });

  it('leaves text, blob and untyped columns alone', () => {
    for (const type of ['TEXT', 'VARCHAR(20)', 'BLOB', '']) expect(numberParamFor(type), type).toBeUndefined();
    expect(numberParamFor('REAL')?.('32.7')).toBe(32.7);
    expect(numberParamFor('INTEGER')?.('1234567890123456')).toBe('1234567890123456');
    expect(numberParamFor('INTEGER')?.('-0')).toBe('-0');
  });
});
