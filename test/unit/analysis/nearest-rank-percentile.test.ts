import { describe, expect, it } from 'vitest';
import { nearestRankPercentile } from '../../../src/analysis/nearest-rank-percentile.js';

// The reference feed's lateness histogram (the story's figures).
const REFERENCE = [840, 164, 45, 9, 7, 10, 10, 11, 11, 13, 3, 1].map((rows, days) => ({ days, rows }));

describe('nearestRankPercentile', () => {
  it('gives the story percentiles on the reference histogram: 95% within 5 days, 99% within 9', () => {
    expect(nearestRankPercentile(REFERENCE, 50)).toBe(0);
    expect(nearestRankPercentile(REFERENCE, 90)).toBe(2);
    expect(nearestRankPercentile(REFERENCE, 95)).toBe(5);
    expect(nearestRankPercentile(REFERENCE, 99)).toBe(9);
    expect(nearestRankPercentile(REFERENCE, 100)).toBe(11);
  });

  it('is null on an empty histogram and skips empty bins', () => {
    expect(nearestRankPercentile([], 50)).toBeNull();
    expect(nearestRankPercentile([{ days: 0, rows: 1 }, { days: 1, rows: 0 }, { days: 2, rows: 1 }], 60)).toBe(2);
  });

  it('rejects a percentile outside (0, 100]', () => {
    expect(() => nearestRankPercentile(REFERENCE, 0)).toThrow(RangeError);
    expect(() => nearestRankPercentile(REFERENCE, 101)).toThrow(RangeError);
  });
});
