import { describe, expect, it } from 'vitest';
import { MAX_DAYS, requireWholeDays } from '../../../src/analysis/require-whole-days.js';
import { ProjectError } from '../../../src/errors/project-error.js';

describe('requireWholeDays', () => {
  it.each([[0, 0], [3, 3], ['14', 14], [' 7 ', 7], [MAX_DAYS, MAX_DAYS], [String(MAX_DAYS), MAX_DAYS]])('accepts %j as %d', (value, days) => {
    expect(requireWholeDays(value, "var 'lookback_days'")).toBe(days);
  });

  it.each([-1, '-3', 2.5, '2.5', 'abc', '', MAX_DAYS + 1, '99999999999', 1e21, Number.NaN, Number.POSITIVE_INFINITY, null, true, '0x10', '1e3'])('refuses %j with one clear message', (value) => {
    let caught: unknown;
    try {
      requireWholeDays(value, "var 'lookback_days'");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProjectError);
    expect((caught as ProjectError).message).toBe(`var 'lookback_days' must be a whole number of days from 0 to ${MAX_DAYS}, got '${String(value)}'`);
  });
});
