import { describe, expect, it } from 'vitest';
import { formatRange, minimalRanges } from '../../../src/analysis/minimal-ranges.js';

describe('minimalRanges', () => {
  it('merges consecutive days, across month ends, whatever the input order', () => {
    expect(minimalRanges(['2026-10-01', '2026-09-30', '2026-09-03', '2026-09-04', '2026-09-07', '2026-09-04'])).toEqual([
      { start: '2026-09-03', end: '2026-09-04' },
      { start: '2026-09-07', end: '2026-09-07' },
      { start: '2026-09-30', end: '2026-10-01' },
    ]);
  });

  it('is empty for no partitions and keeps non-date partitions apart', () => {
    expect(minimalRanges([])).toEqual([]);
    expect(minimalRanges(['b', 'a', '2026-09-01'])).toEqual([
      { start: '2026-09-01', end: '2026-09-01' },
      { start: 'a', end: 'a' },
      { start: 'b', end: 'b' },
    ]);
  });

  it('merges consecutive whole hours written alike (hourly partitions), across midnight', () => {
    expect(minimalRanges(['2026-03-02 23:00:00', '2026-03-02 22:00:00', '2026-03-03 00:00:00', '2026-03-03 02:00:00'])).toEqual([
      { start: '2026-03-02 22:00:00', end: '2026-03-03 00:00:00' },
      { start: '2026-03-03 02:00:00', end: '2026-03-03 02:00:00' },
    ]);
    // Not whole hours, or written differently: each its own range.
    expect(minimalRanges(['2026-03-02 06:30:00', '2026-03-02 07:30:00'])).toHaveLength(2);
    expect(minimalRanges(['2026-03-02 06:00:00', '2026-03-02T07:00:00'])).toHaveLength(2);
  });

  it('merges consecutive months (monthly partitions), across a year end', () => {
    expect(minimalRanges(['2026-01', '2025-12', '2025-11', '2026-03'])).toEqual([
      { start: '2025-11', end: '2026-01' },
      { start: '2026-03', end: '2026-03' },
    ]);
  });

  it('formats one-day ranges as the day', () => {
    expect(formatRange({ start: '2026-09-03', end: '2026-09-03' })).toBe('2026-09-03');
    expect(formatRange({ start: '2026-09-03', end: '2026-09-05' })).toBe('2026-09-03..2026-09-05');
  });
});
