import { describe, expect, it } from 'vitest';
import { requireDateOrTimeRange, requireDateRange, requireIsoDate, requireIsoDateOrTime } from '../../../src/analysis/require-iso-date.js';
import { ProjectError } from '../../../src/errors/project-error.js';

describe('requireIsoDate', () => {
  it('accepts real dates written YYYY-MM-DD', () => {
    expect(requireIsoDate('2026-09-01', '--start')).toBe('2026-09-01');
    expect(requireIsoDate('2028-02-29', '--start')).toBe('2028-02-29');
  });

  it.each(["2026-09-01'; DROP TABLE x; --", '2026-02-30', '2026-9-1', '', 'yesterday', '2026-09-01 ', 20260901])('rejects %j with a ProjectError (exit 2)', (bad) => {
    let caught: unknown;
    try {
      requireIsoDate(bad, '--start');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProjectError);
    expect((caught as ProjectError).exitCode).toBe(2);
    expect((caught as ProjectError).message).toMatch(/^--start must be a real date written YYYY-MM-DD/);
  });

  it.each(['0000-01-01', '0999-12-31', '9999-12-31', '9999-01-01'])('refuses the real date %s, outside the dates mini-dbt works with', (bad) => {
    expect(() => requireIsoDate(bad, '--end')).toThrow(new ProjectError(`--end is ${bad}, outside the dates mini-dbt works with (1000-01-01 to 9998-12-31)`));
  });

  it.each(['2026-13-40', '+002026-01-01', '2026-00-10', '2026-04-31', '2100-02-29', '2026-09-01T00:00:00'])('refuses %s as not a real date', (bad) => {
    expect(() => requireIsoDate(bad, '--start')).toThrow(`--start must be a real date written YYYY-MM-DD, got '${bad}'`);
  });

  it('accepts both ends of the range, and an invalid Date object is refused, not a RangeError', () => {
    expect(requireIsoDate('1000-01-01', 'x')).toBe('1000-01-01');
    expect(requireIsoDate('9998-12-31', 'x')).toBe('9998-12-31');
    expect(() => requireIsoDate(new Date(Number.NaN), 'x')).toThrow(ProjectError);
  });

  it('echoes at most 60 characters of a bad value', () => {
    const err = (() => {
      try {
        requireIsoDate('2026-09-01'.repeat(1000), '--start');
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(err?.message.length).toBeLessThan(120);
  });

  it('requires start <= end in a range', () => {
    expect(requireDateRange('2026-09-01', '2026-09-01')).toEqual({ start: '2026-09-01', end: '2026-09-01' });
    expect(() => requireDateRange('2026-09-02', '2026-09-01')).toThrow(/--start 2026-09-02 is after --end 2026-09-01/);
  });
});

describe('requireIsoDateOrTime and requireDateOrTimeRange (an as-of, a backfill range: hourly partitions)', () => {
  it('accepts a date, or a date and a time of day, as given', () => {
    expect(requireIsoDateOrTime('2026-03-02', 'as_of')).toBe('2026-03-02');
    expect(requireIsoDateOrTime('2026-03-02 18:00:00', 'as_of')).toBe('2026-03-02 18:00:00');
    expect(requireIsoDateOrTime('2026-03-02T18:05', 'as_of')).toBe('2026-03-02T18:05');
    expect(requireIsoDateOrTime(new Date(Date.UTC(2026, 2, 2, 18)), 'as_of')).toBe('2026-03-02 18:00:00');
    expect(requireIsoDateOrTime(new Date(Date.UTC(2026, 2, 2)), 'as_of')).toBe('2026-03-02');
  });

  it.each(['2026-03-02 24:00:00', '2026-03-02 18:60', '2026-02-30 06:00:00', '2026-03-02 6:00', '2026-03-02 18:00:00Z', 'tonight'])('refuses %j, naming both forms', (bad) => {
    expect(() => requireIsoDateOrTime(bad, 'as_of')).toThrow(ProjectError);
  });

  it('orders the ends of a range', () => {
    expect(requireDateOrTimeRange('2026-03-02 06:00:00', '2026-03-02 09:00:00')).toEqual({ start: '2026-03-02 06:00:00', end: '2026-03-02 09:00:00' });
    expect(() => requireDateOrTimeRange('2026-03-02 09:00:00', '2026-03-02 06:00:00')).toThrow('--start 2026-03-02 09:00:00 is after --end 2026-03-02 06:00:00');
  });
});
