import { describe, expect, it } from 'vitest';
import { requireDateRange, requireIsoDate } from '../../../src/analysis/require-iso-date.js';
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

  it('requires start <= end in a range', () => {
    expect(requireDateRange('2026-09-01', '2026-09-01')).toEqual({ start: '2026-09-01', end: '2026-09-01' });
    expect(() => requireDateRange('2026-09-02', '2026-09-01')).toThrow(/--start 2026-09-02 is after --end 2026-09-01/);
  });
});
