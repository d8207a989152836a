/**
 * Feeds unlike the example's: partitioned by hour, by month or by a value, not by day. The
 * exact stale check, the ranges it proposes, `backfill --stale` and a
 * backfill of a range of hours must work on hours (consecutive hours merge
 * into one range; the range guard compares times of day, not their dates),
 * and the fast mode, which maps raw rows to days, must refuse rather than
 * answer day against hour. Monthly partitions (`YYYY-MM`) the same way:
 * consecutive months merge, a backfill takes months. Every expectation is computed here from the
 * generated rows, independently of mini-dbt.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';
import { describePg, freshPgSchema, writePgProfiles, type PgTestTarget } from '../support/pg-test-database.js';

interface Event { readonly id: number; readonly ts: string; readonly loaded: string; readonly value: number }

const pad = (n: number) => String(n).padStart(2, '0');
const at = (hour: number, minute: number) => `2026-03-${pad(1 + Math.floor(hour / 24))} ${pad(hour % 24)}:${pad(minute)}:00`;

/** 72 hours of 5 events each; a few land 1, 3 or 6 hours late (a small deterministic generator). */
function events(): Event[] {
  let state = 7;
  const next = (n: number) => ((state = (state * 1103515245 + 12345) % 2147483648), state % n);
  const out: Event[] = [];
  for (let h = 0; h < 72; h++) {
    for (let k = 0; k < 5; k++) {
      const lag = [0, 0, 0, 1, 3, 6][next(6)]!;
      out.push({ id: out.length + 1, ts: at(h, next(60)), loaded: at(h + lag, 59), value: 1 + next(100) });
    }
  }
  return out;
}

const MODEL = `{{ config(materialized='incremental', unique_key='hour', incremental_strategy='delete+insert', partition_by='hour') }}
{% set as_of = var('as_of', none) %}
{% set night = ("'" ~ as_of ~ "'") if as_of is not none else "(select max(loaded_at) from " ~ ref('events') ~ ")" %}
select strftime('%Y-%m-%d %H:00:00', event_ts) as hour, count(*) as n, sum(value) as total
from {{ ref('events') }}
where loaded_at <= {{ night }}
{% if is_incremental() %}
  {% if var('start', none) is not none %}
  and strftime('%Y-%m-%d %H:00:00', event_ts) between '{{ var("start") }}' and '{{ var("end") }}'
  {% else %}
  and event_ts >= datetime({{ night }}, '-2 hours')
  {% endif %}
{% endif %}
group by 1
`;

/** Whole hours from an event's hour to its landing's hour. */
const lagOf = (e: Event): number => (Date.parse(`${e.loaded.slice(0, 13).replace(' ', 'T')}:00:00Z`) - Date.parse(`${e.ts.slice(0, 13).replace(' ', 'T')}:00:00Z`)) / 3_600_000;

/** Rows per whole hours late, the non-empty ones, in order. */
function lagHistogram(rows: readonly Event[]): { days: number; rows: number }[] {
  const counts = new Map<number, number>();
  for (const e of rows) counts.set(lagOf(e), (counts.get(lagOf(e)) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([days, n]) => ({ days, rows: n }));
}

/** Per hour, the count and total of the events landed by `asOf` (everything when undefined). */
function oracle(rows: readonly Event[], asOf?: string): Map<string, { n: number; total: number }> {
  const out = new Map<string, { n: number; total: number }>();
  for (const e of rows) {
    if (asOf !== undefined && e.loaded > asOf) continue;
    const hour = `${e.ts.slice(0, 13)}:00:00`;
    const cell = out.get(hour) ?? { n: 0, total: 0 };
    out.set(hour, { n: cell.n + 1, total: cell.total + e.value });
  }
  return out;
}

function live(dir: string): Map<string, { n: number; total: number }> {
  return new Map(tableRows(dir, 'hourly').map((r) => [String(r.hour), { n: Number(r.n), total: Number(r.total) }]));
}

/** The hours whose live row differs from the oracle's (or exists on one side only). */
function differing(a: Map<string, { n: number; total: number }>, b: Map<string, { n: number; total: number }>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((h) => JSON.stringify(a.get(h)) !== JSON.stringify(b.get(h))).sort();
}

describe('hourly partitions: stale, its ranges, and backfills of hours', () => {
  const rows = events();
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });

  beforeAll(() => {
    dir = writeProject({
      'dbt_project.yml': 'name: hourly_feed\nprofile: hourly_feed\n',
      'seeds/events.csv': ['event_id,event_ts,loaded_at,value', ...rows.map((e) => `${e.id},${e.ts},${e.loaded},${e.value}`)].join('\n') + '\n',
      'seeds/events.yml': 'version: 2\nseeds:\n  - name: events\n    config:\n      event_time: event_ts\n      loaded_at: loaded_at\n',
      'models/hourly.sql': MODEL,
    });
    expect(cli('seed').code).toBe(0);
    expect(cli('run', '--vars', '{as_of: "2026-03-02 12:00:00"}').code).toBe(0);
    expect(cli('run', '--vars', '{as_of: "2026-03-02 18:00:00"}').code).toBe(0);
  });

  it('finds exactly the hours a full rebuild as of the same time would change, as one range of consecutive hours', () => {
    const asOf = '2026-03-02 18:00:00';
    const expected = differing(live(dir), oracle(rows, asOf));
    expect(expected.length).toBeGreaterThan(1);
    const out = cli('stale', 'hourly', '--vars', `{as_of: "${asOf}"}`, '--json');
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as { stale: string[]; ranges: { start: string; end: string }[]; covering_range: { partitions: number } };
    expect(report.stale).toEqual(expected);
    // The stale hours of this feed are consecutive (the lookback of 2 hours skipped 12:00-15:00, late rows hit 06:00-11:00).
    expect(report.ranges).toEqual([{ start: expected[0], end: expected[expected.length - 1] }]);
    expect(report.covering_range.partitions).toBe(expected.length);
    const text = cli('stale', 'hourly', '--vars', `{as_of: "${asOf}"}`);
    expect(text.stdout).toContain(`ranges covering them (1): ${expected[0]}..${expected[expected.length - 1]}`);
  });

  it('refuses the fast mode, which would compare days with hours', () => {
    const out = cli('stale', 'hourly', '--fast', '--vars', '{as_of: "2026-03-02 18:00:00"}');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("model 'hourly' writes partitions by time of day");
  });

  it('backfills a range of hours given as --start/--end, and only those hours', () => {
    const before = live(dir);
    const out = cli('backfill', 'hourly', '--start', '2026-03-02 06:00:00', '--end', '2026-03-02 08:00:00', '--reason', 'late rows');
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const after = live(dir);
    const everything = oracle(rows);
    for (const hour of ['2026-03-02 06:00:00', '2026-03-02 07:00:00', '2026-03-02 08:00:00']) expect(after.get(hour)).toEqual(everything.get(hour));
    expect(differing(before, after).every((h) => h >= '2026-03-02 06:00:00' && h <= '2026-03-02 08:00:00')).toBe(true);
    expect(cli('backfill', 'hourly', '--start', '2026-03-02 25:00:00', '--end', '2026-03-02 26:00:00', '--reason', 'x').code).toBe(2);
  });

  it('lateness --unit hour: the histogram of hours late is the lags the rows were generated with', () => {
    const out = cli('lateness', 'events', '--unit', 'hour', '--lookback', '2', '--json');
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { unit: string; histogram: { days: number; rows: number }[]; required_lookback: number; missed: { rows: number } };
    expect(report.unit).toBe('hour');
    expect(report.histogram.filter((b) => b.rows > 0)).toEqual(lagHistogram(rows));
    expect(report.required_lookback).toBe(6);
    expect(report.missed.rows).toBe(rows.filter((e) => lagOf(e) > 2).length);
    const text = cli('lateness', 'events', '--unit', 'hour', '--lookback', '2');
    expect(text.stdout).toContain('-- lookback 2: rows below land after the last run that rewrites their hour --');
    expect(text.stdout).toContain('required lookback: 6 hour(s)');
    expect(cli('lateness', 'events', '--unit', 'week').code).toBe(2);
  });

  it('backfill --stale rewrites every stale hour, after which nothing is stale', () => {
    const out = cli('backfill', 'hourly', '--stale', '--reason', 'late rows');
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toMatch(/the ranges? (is|are) \d+ of the 96 hour\(s\) of history/);
    expect(differing(live(dir), oracle(rows))).toEqual([]);
    const again = JSON.parse(cli('stale', 'hourly', '--json').stdout) as { stale: string[] };
    expect(again.stale).toEqual([]);
  });
});

const MONTHLY = `{{ config(materialized='incremental', unique_key='month', incremental_strategy='delete+insert', partition_by='month') }}
select strftime('%Y-%m', event_ts) as month, count(*) as n, sum(value) as total
from {{ ref('events') }}
{% if is_incremental() %}
  {% if var('start', none) is not none %}
  where strftime('%Y-%m', event_ts) between '{{ var("start") }}' and '{{ var("end") }}'
  {% else %}
  where event_ts > (select max(month) from {{ this }})
  {% endif %}
{% endif %}
group by 1
`;

describe('monthly partitions: stale ranges of months and backfills of months', () => {
  // Two months of events: February's last 24 hours and March's first 48.
  const rows = events().map((e) => (e.ts < '2026-03-02' ? { ...e, ts: e.ts.replace('2026-03-01', '2026-02-28'), loaded: e.loaded.replace('2026-03-01', '2026-02-28') } : e));
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });
  const months = () => new Map(tableRows(dir, 'monthly').map((r) => [String(r.month), Number(r.n)]));

  beforeAll(() => {
    dir = writeProject({
      'dbt_project.yml': 'name: monthly_feed\nprofile: monthly_feed\n',
      'seeds/events.csv': ['event_id,event_ts,loaded_at,value', ...rows.map((e) => `${e.id},${e.ts},${e.loaded},${e.value}`)].join('\n') + '\n',
      'seeds/events.yml': 'version: 2\nseeds:\n  - name: events\n    config:\n      event_time: event_ts\n      loaded_at: loaded_at\n',
      'models/monthly.sql': MONTHLY,
    });
    expect(cli('seed').code).toBe(0);
    expect(cli('run').code).toBe(0);
  });

  it('reports two damaged consecutive months as one range and backfills them', () => {
    const right = months();
    expect([...right.keys()]).toEqual(['2026-02', '2026-03']);
    const db = new Database(join(dir, 'warehouse.db'));
    db.exec('update monthly set n = n - 1');
    db.close();
    const report = JSON.parse(cli('stale', 'monthly', '--json').stdout) as { stale: string[]; ranges: unknown[]; covering_range: { partitions: number } };
    expect(report.stale).toEqual(['2026-02', '2026-03']);
    expect(report.ranges).toEqual([{ start: '2026-02', end: '2026-03' }]);
    expect(report.covering_range.partitions).toBe(2);
    const dry = cli('backfill', 'monthly', '--start', '2026-03', '--end', '2026-03', '--reason', 'x', '--dry-run');
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    // March's days in the history only (the history ends on the 4th, when the last rows landed), never more days than it has.
    expect(dry.stdout).toMatch(/the range is 4 of the 5 day\(s\) of history/);
    const fixed = cli('backfill', 'monthly', '--stale', '--reason', 'damaged');
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(months()).toEqual(right);
  });
});

describe('partitions by value (a user id): stale and backfill --stale, no time arithmetic', () => {
  const rows = events();
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });
  const users = () => new Map(tableRows(dir, 'by_user').map((r) => [Number(r.user_id), Number(r.n)]));

  beforeAll(() => {
    dir = writeProject({
      'dbt_project.yml': 'name: by_user_feed\nprofile: by_user_feed\n',
      'seeds/events.csv': ['event_id,event_ts,loaded_at,value,user_id', ...rows.map((e) => `${e.id},${e.ts},${e.loaded},${e.value},${1 + (e.id % 5)}`)].join('\n') + '\n',
      'seeds/events.yml': 'version: 2\nseeds:\n  - name: events\n    config:\n      event_time: event_ts\n      loaded_at: loaded_at\n',
      'models/by_user.sql': `{{ config(materialized='incremental', unique_key='user_id', incremental_strategy='delete+insert', partition_by='user_id') }}
select user_id, count(*) as n from {{ ref('events') }}
{% if is_incremental() %}
  {% if var('start', none) is not none %} where user_id between {{ var('start') }} and {{ var('end') }} {% else %} where 1 = 0 {% endif %}
{% endif %}
group by 1
`,
    });
    expect(cli('seed').code).toBe(0);
    expect(cli('run').code).toBe(0);
  });

  it('lists each damaged user as its own range and rewrites exactly those', () => {
    const right = users();
    const db = new Database(join(dir, 'warehouse.db'));
    db.exec('update by_user set n = n - 1 where user_id in (2, 4)');
    db.close();
    const text = cli('stale', 'by_user');
    expect(text.stdout).toContain('ranges covering them (2): 2, 4');
    // --start/--end take dates, hours and months only: no "one range" command is offered for user ids.
    expect(text.stdout).not.toContain('or one range');
    const fixed = cli('backfill', 'by_user', '--stale', '--reason', 'damaged');
    expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('partitions by value, not by time (user_id)');
    expect(users()).toEqual(right);
  });
});

describePg('lateness in hours on PostgreSQL (its own hour-of-day expression)', () => {
  const rows = events();
  let dir: string;
  let target: PgTestTarget;
  beforeAll(async () => {
    target = await freshPgSchema('hours');
    dir = writeProject({
      'dbt_project.yml': 'name: hourly_pg\nprofile: hourly_pg\n',
      'seeds/events.csv': ['event_id,event_ts,loaded_at,value', ...rows.map((e) => `${e.id},${e.ts},${e.loaded},${e.value}`)].join('\n') + '\n',
      'seeds/events.yml': 'version: 2\nseeds:\n  - name: events\n    config:\n      event_time: event_ts\n      loaded_at: loaded_at\n',
    });
    writePgProfiles(dir, target, { profile: 'hourly_pg' });
    const seeded = runCli(['seed'], { cwd: dir });
    expect(seeded.code, seeded.stdout + seeded.stderr).toBe(0);
  });
  afterAll(async () => {
    await target?.drop();
  });

  it('gives the same histogram of hours late as the generator', () => {
    const out = runCli(['lateness', 'events', '--unit', 'hour', '--json'], { cwd: dir });
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout) as { histogram: { days: number; rows: number }[] };
    expect(report.histogram.filter((b) => b.rows > 0)).toEqual(lagHistogram(rows));
  });
});
