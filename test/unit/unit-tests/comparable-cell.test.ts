import { describe, expect, it } from 'vitest';
import { comparableCell, unitTestDiff } from '../../../src/unit-tests/unit-test-diff.js';

describe('comparableCell: how a unit test compares a cell', () => {
  it('reads numeric text as a number and a midnight timestamp as its date (dbt casts the expected value to the column type)', () => {
    expect(comparableCell('2')).toBe(2);
    expect(comparableCell('2016-09-01 00:00:00')).toBe('2016-09-01');
    expect(comparableCell('2016-09-01T00:00:00.000')).toBe('2016-09-01');
    expect(comparableCell('2016-09-01 00:00')).toBe('2016-09-01');
    expect(comparableCell('2016-09-01 00:00:01')).toBe('2016-09-01 00:00:01');
    expect(comparableCell('2016-09-01 12:00:00')).toBe('2016-09-01 12:00:00');
  });

  it("finds no difference between date_trunc('day') on SQLite and an expected date, and still sees a time of day", () => {
    const actual = [[1, comparableCell('2016-09-01 00:00:00')]];
    expect(unitTestDiff(['id', 'opened_date'], actual, [[1, comparableCell('2016-09-01')]])).toBeUndefined();
    expect(unitTestDiff(['id', 'opened_date'], [[1, comparableCell('2016-09-01 10:00:00')]], [[1, comparableCell('2016-09-01')]])).toBeDefined();
  });
});
