import { describe, expect, it } from 'vitest';
import { parseEventTimeRange, parseTime, tryParseTime } from '../../../src/config/microbatch-time.js';

describe('parseTime: the times users give (begin, --event-time-*, as_of)', () => {
  it('reads dates and times in UTC, years below 100 included (never shifted to 19xx)', () => {
    expect(parseTime('2024-09-01', 'x').toISOString()).toBe('2024-09-01T00:00:00.000Z');
    expect(parseTime('2024-09-01 13:05:07', 'x').toISOString()).toBe('2024-09-01T13:05:07.000Z');
    expect(tryParseTime('0050-03-01')?.getUTCFullYear()).toBe(50);
  });

  it.each(['2026-13-40', '2026-02-30', '+002026-01-01', '2026-09-01 24:00:00', 'tomorrow'])('refuses %s as not a date or time', (bad) => {
    expect(() => parseTime(bad, '--event-time-start')).toThrow(`--event-time-start must be a date or time like 2024-09-01 or 2024-09-01 13:00:00 (UTC), got '${bad}'`);
  });

  it.each([['0000-01-01', '0000-01-01'], ['0999-12-31 23:00:00', '0999-12-31 23:00:00'], ['9999-12-31', '9999-12-31']])('refuses %s, outside the dates mini-dbt works with', (bad, shown) => {
    expect(() => parseTime(bad, "var 'as_of'")).toThrow(`var 'as_of' is ${shown}, outside the dates mini-dbt works with (1000-01-01 to 9998-12-31)`);
  });

  it('an --event-time range at the edges of the calendar is refused before any arithmetic', () => {
    expect(() => parseEventTimeRange('2026-01-01', '9999-12-31')).toThrow(/--event-time-end is 9999-12-31, outside/);
    expect(parseEventTimeRange('1000-01-01', '9998-12-31')?.end.toISOString()).toBe('9998-12-31T00:00:00.000Z');
  });
});
