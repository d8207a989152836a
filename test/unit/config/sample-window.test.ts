import { describe, expect, it } from 'vitest';
import { parseSampleWindow } from '../../../src/config/sample-window.js';

const at = (iso: string): Date => new Date(`${iso}Z`);
const window = (spec: string, now: string) => {
  const w = parseSampleWindow(spec, at(now));
  return [w.start.toISOString(), w.end.toISOString()];
};

describe('parseSampleWindow (dbt 1.10 --sample)', () => {
  it('a relative window ends now and starts N grains before, to the second, as dbt offsets it', () => {
    expect(window('1 day', '2025-01-03T02:03:00')).toEqual(['2025-01-02T02:03:00.000Z', '2025-01-03T02:03:00.000Z']);
    expect(window('6 hours', '2025-01-03T02:03:09')).toEqual(['2025-01-02T20:03:09.000Z', '2025-01-03T02:03:09.000Z']);
    expect(window('2 Years', '2024-02-29T10:00:00')[0]).toBe('2022-02-28T10:00:00.000Z');
  });

  it("a month back from the 31st is the shorter month's last day (relativedelta's clamp)", () => {
    expect(window('1 month', '2025-03-31T08:00:00')[0]).toBe('2025-02-28T08:00:00.000Z');
    expect(window('3 months', '2025-05-31T00:00:00')[0]).toBe('2025-02-28T00:00:00.000Z');
  });

  it('a static window is its start and end (UTC)', () => {
    expect(window("{'start': '2024-07-01', 'end': '2024-07-08 18:00:00'}", '2030-01-01T00:00:00')).toEqual(['2024-07-01T00:00:00.000Z', '2024-07-08T18:00:00.000Z']);
    expect(() => parseSampleWindow("{'start': '2024-07-01'}", new Date())).toThrow('a static window is a mapping with start and end');
  });
});
