import { describe, expect, it } from 'vitest';
import { batchId, batchLabel, parseEventTimeRange, parseTime, tryParseTime } from '../../../src/config/microbatch-time.js';
import { datetimeModule } from '../../../src/compile/jinja/py-datetime.js';

describe('parseTime: the times users give (begin, --event-time-*, as_of)', () => {
  it('reads dates and times in UTC, years below 100 included (never shifted to 19xx)', () => {
    expect(parseTime('2024-09-01', 'x').toISOString()).toBe('2024-09-01T00:00:00.000Z');
    expect(parseTime('2024-09-01 13:05:07', 'x').toISOString()).toBe('2024-09-01T13:05:07.000Z');
    expect(tryParseTime('0050-03-01')?.getUTCFullYear()).toBe(50);
  });

  it("reads a UTC offset as PostgreSQL's timestamptz text writes it (+00), as +00:00 and +0000", () => {
    for (const text of ['2026-12-05 01:12:48.116874+00', '2026-12-05 01:12:48+00:00', '2026-12-05T01:12:48+0000']) {
      expect(tryParseTime(text)?.toISOString(), text).toBe('2026-12-05T01:12:48.000Z');
    }
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

describe("dbt's forms: begin as a Python datetime, model.batch.id", () => {
  it('a date or datetime a template made (modules.datetime) is a time, as in dbt', () => {
    const { datetime, date } = datetimeModule() as Record<string, (...args: unknown[]) => unknown>;
    expect(tryParseTime(datetime!(2020, 1, 1, 0, 0, 0))?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(tryParseTime(datetime!(2020, 1, 1, 13, 5, 7))?.toISOString()).toBe('2020-01-01T13:05:07.000Z');
    expect(tryParseTime(date!(2020, 2, 29))?.toISOString()).toBe('2020-02-29T00:00:00.000Z');
    expect(parseTime(datetime!(2020, 1, 1), 'begin').toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(tryParseTime({ isoformat: () => '2020-01-01' })).toBeUndefined(); // only the datetime module's objects
  });

  it("the batch id is dbt's batch_id: the batch start as dbt logs it, without dashes", () => {
    const start = new Date('2020-01-02T03:00:00Z');
    expect(['hour', 'day', 'month', 'year'].map((size) => [batchLabel(start, size as 'day'), batchId(batchLabel(start, size as 'day'))])).toEqual([
      ['2020-01-02T03', '20200102T03'], ['2020-01-02', '20200102'], ['2020-01', '202001'], ['2020', '2020'],
    ]);
  });
});
