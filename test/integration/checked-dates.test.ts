import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtExample } from '../support/built-example.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const copyOfBase = builtExample();

const OUTSIDE = 'outside the dates mini-dbt works with (1000-01-01 to 9998-12-31)';
const DAILY = 'models/marts/daily_revenue.sql';

describe('dates and day counts: refused with one message, the warehouse unchanged', () => {
  const cases: readonly (readonly [string, readonly string[], string])[] = [
    ['an impossible as_of (template, at file:line)', ['run', '--vars', "{as_of: '2026-02-30'}"], `${DAILY}:17:32: Compilation Error in model daily_revenue (${DAILY}): var 'as_of' is not a real calendar date: '2026-02-30'`],
    ['month 13', ['run', '--vars', '{as_of: 2026-13-40}'], "var 'as_of' is not a real calendar date: '2026-13-40'"],
    ['year 0', ['run', '--vars', "{as_of: '0000-01-01'}"], `var 'as_of' is 0000-01-01, ${OUTSIDE}`],
    ['the last day of year 9999', ['run', '--vars', "{as_of: '9999-12-31'}"], `var 'as_of' is 9999-12-31, ${OUTSIDE}`],
    ['a six-digit year', ['run', '--vars', "{as_of: '+002026-01-01'}"], "var 'as_of' must be a date like 2026-09-01, got '+002026-01-01'"],
    ['an impossible backfill end var', ['run', '-s', 'daily_revenue', '--vars', '{start: 2026-09-01, end: 2026-09-31}'], "var 'end' is not a real calendar date: '2026-09-31'"],
    ['a negative lookback', ['run', '--vars', '{lookback_days: -3}'], "var 'lookback_days' must be a whole number of days from 0 to 36500, got '-3'"],
    ['a huge lookback', ['run', '--vars', '{lookback_days: 99999999999}'], "var 'lookback_days' must be a whole number of days from 0 to 36500, got '99999999999'"],
    ['a lookback that is not a number', ['run', '--vars', '{lookback_days: three}'], "var 'lookback_days' must be a whole number of days from 0 to 36500, got 'three'"],
    ['backfill --end 9999-12-31', ['backfill', 'daily_revenue', '--start', '2026-09-01', '--end', '9999-12-31', '--reason', 'x'], `Error: --end is 9999-12-31, ${OUTSIDE}`],
    ['backfill --start 0000-01-01', ['backfill', 'daily_revenue', '--start', '0000-01-01', '--end', '2026-10-01', '--reason', 'x'], `Error: --start is 0000-01-01, ${OUTSIDE}`],
    ['history --partition 2026-13-40', ['history', 'daily_revenue', '--partition', '2026-13-40'], "Error: --partition must be a real date written YYYY-MM-DD, got '2026-13-40'"],
    ['replay --to 9999-12-31', ['replay', 'daily_revenue', '--from', '2026-10-01', '--to', '9999-12-31'], `Error: --to is 9999-12-31, ${OUTSIDE}`],
    ['replay over millions of nights', ['replay', 'daily_revenue', '--from', '1000-01-01', '--to', '9998-12-31'], 'Error: --from 1000-01-01 --to 9998-12-31 is 3286817 nights; a replay simulates at most 36500'],
    ['replay --weekly-backfill past the calendar', ['replay', 'daily_revenue', '--from', '2026-10-01', '--to', '2026-10-02', '--weekly-backfill', '99999999999'], "Error: --weekly-backfill must be a whole number of days from 0 to 36500, got '99999999999'"],
    ['--event-time-start 2026-13-40', ['run', '--event-time-start', '2026-13-40', '--event-time-end', '2027-01-01'], "Error: --event-time-start must be a date or time like 2024-09-01 or 2024-09-01 13:00:00 (UTC), got '2026-13-40'"],
    ['--event-time-end 9999-12-31', ['run', '--event-time-start', '2026-01-01', '--event-time-end', '9999-12-31'], `Error: --event-time-end is 9999-12-31, ${OUTSIDE}`],
    ['lateness --lookback 99999999', ['lateness', 'raw_orders', '--lookback', '99999999'], "Error: --lookback must be a whole number of days from 0 to 36500, got '99999999'"],
    ['stale with as_of 9999-12-31', ['stale', 'daily_revenue', '--vars', "{as_of: '9999-12-31'}"], `var 'as_of' is 9999-12-31, ${OUTSIDE}`],
  ];

  it.each(cases)('%s', (_name, args, message) => {
    const dir = copyOfBase();
    const db = join(dir, 'warehouse.db');
    const before = warehouseSnapshot(db);
    const result = runCli([...args, '--project-dir', dir]);
    const seen = `${result.stderr}\n${result.stdout}`;
    expect(seen).toContain(message);
    expect(result.code).toBe(2);
    expect(seen).not.toMatch(/RangeError|Invalid time value|Invalid Date|NaN|Internal error|\n\s+at .*\.js:\d+/);
    expect(warehouseSnapshot(db)).toEqual(before);
  });

  it('the dates at both ends of the range, and a leap day, still run', () => {
    const dir = copyOfBase();
    for (const asOf of ['2028-02-29', '1000-01-01', '9998-12-31']) {
      const result = runCli(['run', '-s', 'daily_revenue', '--vars', `{as_of: '${asOf}', lookback_days: 36500}`, '--project-dir', dir]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
  });
});
