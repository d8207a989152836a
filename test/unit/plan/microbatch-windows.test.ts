import { describe, expect, it } from 'vitest';
import { addBatches, batchLabel, boundText, ceilTime, microbatchNow, parseEventTimeRange, parseTime, truncateTime } from '../../../src/config/microbatch-time.js';
import { microbatchWindows, type MicrobatchWindowInput } from '../../../src/plan/microbatch-windows.js';

const t = (s: string) => parseTime(s, 'test');
const labels = (input: MicrobatchWindowInput) => microbatchWindows(input).batches.map((b) => `${b.label}:${b.startText}..${b.endText}:${b.reason}`);
const base = { batchSize: 'day', begin: t('2024-01-01'), lookback: 1, incremental: true } as const;

describe('microbatch batch arithmetic', () => {
  it('truncates, steps and ceils in UTC, across month, year and leap-day boundaries', () => {
    expect(truncateTime(t('2024-02-29 13:45:10'), 'hour').toISOString()).toBe('2024-02-29T13:00:00.000Z');
    expect(truncateTime(t('2024-02-29 13:45:10'), 'month').toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(addBatches(t('2024-01-31'), 'day', 1).toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(addBatches(t('2024-02-28'), 'day', 1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addBatches(t('2024-12-01'), 'month', 1).toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(addBatches(t('2024-03-01'), 'month', -1).toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(addBatches(t('2024-12-31 23:00:00'), 'hour', 1).toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(ceilTime(t('2024-01-31 00:00:01'), 'month').toISOString()).toBe('2024-02-01T00:00:00.000Z');
    expect(ceilTime(t('2024-02-01'), 'month').toISOString()).toBe('2024-02-01T00:00:00.000Z');
  });

  it("labels batches as dbt does and writes bounds at midnight as bare dates", () => {
    const d = t('2024-09-17 13:00:00');
    expect(['hour', 'day', 'month', 'year'].map((s) => batchLabel(truncateTime(d, s as 'day'), s as 'day'))).toEqual(['2024-09-17T13', '2024-09-17', '2024-09', '2024']);
    expect(boundText(t('2024-09-17'))).toBe('2024-09-17');
    expect(boundText(t('2024-09-17T13:00:00'))).toBe('2024-09-17 13:00:00');
    // The point of bare dates: a date-only value compares as the start of its own day.
    expect('2024-09-17' >= boundText(t('2024-09-17')) && '2024-09-17' < boundText(t('2024-09-18'))).toBe(true);
    expect('2024-09-17' >= '2024-09-17 00:00:00').toBe(false); // what a datetime bound would get wrong
  });

  it('with --event-time flags: exactly [start, end), end exclusive, no lookback, no gaps', () => {
    const input = { ...base, now: t('2030-01-01'), eventTime: { start: t('2024-09-01'), end: t('2024-09-04') } };
    expect(labels(input)).toEqual([
      '2024-09-01:2024-09-01..2024-09-02:flags',
      '2024-09-02:2024-09-02..2024-09-03:flags',
      '2024-09-03:2024-09-03..2024-09-04:flags',
    ]);
    // A start equal to the end is no batch at all (never a zero-width one) ...
    expect(microbatchWindows({ ...base, now: t('2030-01-01'), eventTime: { start: t('2024-09-01'), end: t('2024-09-01') } }).batches).toEqual([]);
    // ... and the CLI flags refuse it, like a lone flag.
    expect(() => parseEventTimeRange('2024-09-01', '2024-09-01')).toThrow(/must be before --event-time-end/);
    expect(() => parseEventTimeRange('2024-09-01', undefined)).toThrow(/`--event-time-end` was not/);
    expect(() => parseEventTimeRange(undefined, '2024-09-01')).toThrow(/`--event-time-start` was not/);
    expect(() => parseEventTimeRange('2024-13-01', '2024-14-01')).toThrow(/must be a date or time/);
    expect(parseEventTimeRange(undefined, undefined)).toBeUndefined();
  });

  it('an end inside a batch includes that (partial) batch', () => {
    const input = { ...base, now: t('2030-01-01'), eventTime: { start: t('2024-01-31 10:00:00'), end: t('2024-02-01 00:00:01') } };
    expect(labels(input).map((l) => l.split(':')[0])).toEqual(['2024-01-31', '2024-02-01']);
  });

  it('month batches cross the year and give each month its own window', () => {
    const input = { ...base, batchSize: 'month' as const, now: t('2025-01-15'), incremental: false, begin: t('2024-11-20') };
    expect(labels(input)).toEqual([
      '2024-11:2024-11-01..2024-12-01:begin',
      '2024-12:2024-12-01..2025-01-01:begin',
      '2025-01:2025-01-01..2025-02-01:begin',
    ]);
  });

  it('a first build runs every batch from begin through the current one', () => {
    expect(labels({ ...base, now: t('2024-01-03 08:00:00'), incremental: false }).map((l) => l.split(':')[0])).toEqual(['2024-01-01', '2024-01-02', '2024-01-03']);
  });

  it('an incremental run reruns the current batch and `lookback` before it, never before begin', () => {
    expect(labels({ ...base, now: t('2024-01-10 08:00:00'), built: new Set(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-06', '2024-01-07', '2024-01-08']) }))
      .toEqual(['2024-01-09:2024-01-09..2024-01-10:lookback', '2024-01-10:2024-01-10..2024-01-11:lookback']);
    expect(labels({ ...base, lookback: 3, now: t('2024-01-02 08:00:00') }).map((l) => l.split(':')[0])).toEqual(['2024-01-01', '2024-01-02']);
  });

  it('leaves the batches the ledger never recorded as built, as dbt does, and reports them', () => {
    const w = microbatchWindows({ ...base, now: t('2024-01-07 08:00:00'), built: new Set(['2024-01-01', '2024-01-02', '2024-01-04']) });
    expect(w.batches.map((b) => `${b.label}:${b.reason}`)).toEqual(['2024-01-06:lookback', '2024-01-07:lookback']);
    expect(w.gaps).toEqual([]);
    expect(w.missed?.map((g) => g.label)).toEqual(['2024-01-03', '2024-01-05']);
    expect(w.source).not.toMatch(/never-built/);
    // Not asked (no ledger read): nothing to report.
    expect(microbatchWindows({ ...base, now: t('2024-01-07 08:00:00') }).missed).toBeUndefined();
  });

  it('fill_gaps: true fills every batch since begin that the ledger never recorded as built', () => {
    const w = microbatchWindows({ ...base, now: t('2024-01-07 08:00:00'), built: new Set(['2024-01-01', '2024-01-02', '2024-01-04']), fillGaps: true });
    expect(w.gaps.map((g) => g.label)).toEqual(['2024-01-03', '2024-01-05']);
    expect(w.batches.map((b) => `${b.label}:${b.reason}`)).toEqual(['2024-01-03:gap', '2024-01-05:gap', '2024-01-06:lookback', '2024-01-07:lookback']);
    expect(w.source).toMatch(/plus 2 never-built days since begin \(fill_gaps: true\)/);
  });

  it('takes "now" from the as_of night (the end of that day) or the invocation time', () => {
    expect(microbatchNow('2024-01-03', t('2030-01-01')).toISOString()).toBe('2024-01-04T00:00:00.000Z');
    expect(microbatchNow('2024-01-03 05:00:00', t('2030-01-01')).toISOString()).toBe('2024-01-03T05:00:00.000Z');
    expect(microbatchNow(undefined, t('2030-01-01')).toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });
});
