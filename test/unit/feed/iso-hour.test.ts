import { describe, expect, it } from 'vitest';
import { hasTimeOfDay, nextWholeHour, wholeHourSpan } from '../../../src/feed/iso-hour.js';

describe('whole hours as ISO text', () => {
  it('gives the next whole hour in the same writing, across days, months and years', () => {
    expect(nextWholeHour('2026-03-02 06:00:00')).toBe('2026-03-02 07:00:00');
    expect(nextWholeHour('2026-03-02 23:00:00')).toBe('2026-03-03 00:00:00');
    expect(nextWholeHour('2026-02-28T23:00')).toBe('2026-03-01T00:00');
    expect(nextWholeHour('2024-12-31 23:00:00.000')).toBe('2025-01-01 00:00:00.000');
  });

  it('has no next hour for what is not a whole hour of a real date', () => {
    for (const text of ['2026-03-02 06:30:00', '2026-03-02', '2026-02-30 06:00:00', '2026-03-02 24:00:00', 'x']) expect(nextWholeHour(text)).toBeUndefined();
  });

  it('counts the hours of a span, both ends included', () => {
    expect(wholeHourSpan('2026-03-02 06:00:00', '2026-03-03 23:00:00')).toBe(42);
    expect(wholeHourSpan('2026-03-02 06:00:00', '2026-03-02 06:00:00')).toBe(1);
    expect(wholeHourSpan('2026-03-02 06:00:00', '2026-03-02T07:00:00')).toBeUndefined();
  });

  it('tells a time of day from a date', () => {
    expect(hasTimeOfDay('2026-03-02 06:00:00')).toBe(true);
    expect(hasTimeOfDay('2026-03-02T06:00')).toBe(true);
    expect(hasTimeOfDay('2026-03-02')).toBe(false);
  });
});
