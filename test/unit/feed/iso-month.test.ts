import { describe, expect, it } from 'vitest';
import { isIsoMonth, isoMonthSpan, nextIsoMonth } from '../../../src/feed/iso-month.js';

describe('months as YYYY-MM text', () => {
  it('knows a month and the one after it, across a year end', () => {
    expect(isIsoMonth('2026-03')).toBe(true);
    for (const bad of ['2026-13', '2026-3', '2026-03-01', '0999-12', 202603]) expect(isIsoMonth(bad)).toBe(false);
    expect(nextIsoMonth('2026-03')).toBe('2026-04');
    expect(nextIsoMonth('2026-12')).toBe('2027-01');
    expect(nextIsoMonth('2026-03-01')).toBeUndefined();
  });

  it('counts the months of a span, both ends included', () => {
    expect(isoMonthSpan('2025-11', '2026-02')).toBe(4);
    expect(isoMonthSpan('2026-02', '2026-02')).toBe(1);
    expect(isoMonthSpan('2026-02', '2026-02-01')).toBeUndefined();
  });
});
