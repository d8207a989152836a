import { describe, expect, it } from 'vitest';
import { datetimeModule, dateArithmetic, type PyDateTime } from '../../../../src/compile/jinja/py-datetime.js';

type Callable = ((...args: unknown[]) => PyDateTime) & Record<string, (...args: unknown[]) => PyDateTime>;
const m = datetimeModule() as { datetime: Callable; date: Callable; timedelta: (...args: unknown[]) => unknown };
const kw = (o: Record<string, unknown>) => ({ ...o, __keywords: true });

describe('modules.datetime checks dates as Python does: a ValueError, never a silent roll-over', () => {
  it.each([
    ['date(2026, 2, 30)', () => m.date(2026, 2, 30), 'day is out of range for month'],
    ['date(2026, 13, 1)', () => m.date(2026, 13, 1), 'month must be in 1..12'],
    ['datetime(99999, 1, 1)', () => m.datetime(99999, 1, 1), 'year 99999 is out of range'],
    ['datetime(0, 1, 1)', () => m.datetime(0, 1, 1), 'year 0 is out of range'],
    ['datetime(2026, 1, 1, 24)', () => m.datetime(2026, 1, 1, 24), 'hour must be in 0..23'],
    ["date(2026, 'x', 1)", () => m.date(2026, 'x', 1), 'month: an integer is required (got type str)'],
    ["strptime('2026-13-40', '%Y-%m-%d')", () => m.datetime.strptime!('2026-13-40', '%Y-%m-%d'), "time data '2026-13-40' does not match format '%Y-%m-%d'"],
    ["strptime('2026-02-30', '%Y-%m-%d')", () => m.datetime.strptime!('2026-02-30', '%Y-%m-%d'), 'day is out of range for month'],
    ["fromisoformat('2026-02-29')", () => m.date.fromisoformat!('2026-02-29'), 'day is out of range for month'],
    ['fromtimestamp(1e20)', () => m.datetime.fromtimestamp!(1e20), 'date value out of range'],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(message);
  });

  it('arithmetic past 9999-12-31 or before 0001-01-01 overflows with a message', () => {
    const last = m.datetime(9999, 12, 31);
    expect(() => dateArithmetic('+', last, m.timedelta(kw({ days: 1 })))).toThrow('date value out of range');
    expect(() => dateArithmetic('-', m.date(1, 1, 1), m.timedelta(kw({ days: 1 })))).toThrow('date value out of range');
  });

  it('real dates still work, years below 100 included (never read as 19xx), leap days too', () => {
    expect(m.date(2028, 2, 29).isoformat()).toBe('2028-02-29');
    expect(m.date(50, 1, 1).isoformat()).toBe('0050-01-01');
    expect(m.datetime.strptime!('2026-02-03', '%Y-%m-%d').day).toBe(3);
    expect(m.datetime(2026, 1, 31).replace(kw({ day: 28 })).isoformat()).toBe('2026-01-28T00:00:00');
    expect(() => m.datetime(2026, 1, 31).replace(kw({ month: 2 }))).toThrow('day is out of range for month');
  });
});
