/**
 * A dbt project declares when a source's rows landed with `loaded_at_field`
 * (for `source freshness`), not with mini-dbt's `loaded_at` config. The
 * toolkit (lateness, stale --fast, replay) takes that column too when it
 * names one; an SQL expression there (dbt allows one) is not a column the
 * toolkit can compare, and the source then counts as not declaring it.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

const MODEL = `{{ config(materialized='incremental', unique_key='day', incremental_strategy='delete+insert', partition_by='day') }}
select date(event_ts) as day, count(*) as n
from {{ source('raw', 'events') }}
where loaded_at <= '{{ var("as_of", "9999-12-31") }} 23:59:59'
{% if is_incremental() %} and date(event_ts) >= date('{{ var("as_of", "9999-12-31") }}', '-{{ var("lookback_days", 1) }} days'){% endif %}
group by 1
`;

const sources = (field: string) => `version: 2
sources:
  - name: raw
    schema: main
    loaded_at_field: ${field}
    tables:
      - name: events
        identifier: raw_events
        config:
          event_time: event_ts
`;

/** Twenty days of four events; three land the next night, the fourth four nights later. */
function fill(dir: string): void {
  const db = new Database(join(dir, 'warehouse.db'));
  db.exec('create table raw_events (event_id integer, event_ts text, loaded_at text)');
  const insert = db.prepare('insert into raw_events values (?, ?, ?)');
  const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;
  let id = 1;
  for (let d = 1; d <= 20; d++) for (let k = 0; k < 4; k++) insert.run(id++, `${day(d)} 1${k}:00:00`, `${day(d + (k === 3 ? 4 : 1))} 02:00:00`);
  db.close();
}

describe("a source's loaded_at_field is the toolkit's loaded_at", () => {
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });

  beforeAll(() => {
    dir = writeProject({ 'dbt_project.yml': 'name: src_feed\nprofile: src_feed\n', 'models/sources.yml': sources('loaded_at'), 'models/daily.sql': MODEL });
    fill(dir);
    for (const night of ['05', '06', '07', '08']) expect(cli('run', '--vars', `{as_of: 2026-03-${night}}`).code).toBe(0);
  });

  it('lateness reads it: one row in four lands four days late', () => {
    const r = cli('lateness', 'raw.events', '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.histogram.filter((b: { rows: number }) => b.rows > 0)).toEqual([{ days: 1, rows: 60 }, { days: 4, rows: 20 }]);
    expect(report.required_lookback).toBe(4);
  });

  it('stale --fast answers from the ledger and the landed rows (a date as-of is that whole night), as the exact check does', () => {
    const fast = cli('stale', 'daily', '--fast', '--vars', '{as_of: 2026-03-08}', '--json');
    expect(fast.code, fast.stderr).toBe(0);
    // Each day's fourth event lands four nights later, after the one-day window has passed it; day 1's landed by
    // the first night's full build (at 02:00 on the 5th, inside the night of the 5th), day 5's not yet.
    const report = JSON.parse(fast.stdout);
    expect(report.stale).toEqual(['2026-03-02', '2026-03-03', '2026-03-04']);
    expect(report.as_of).toBe('2026-03-08 23:59:59');
    const exact = JSON.parse(cli('stale', 'daily', '--vars', '{as_of: 2026-03-08}', '--json').stdout);
    expect(exact.stale).toEqual(report.stale);
    const history = JSON.parse(cli('history', 'daily', '--json').stdout);
    expect(history.entries[0].as_of).toBe('2026-03-08 23:59:59');
  });

  it('replay works out the required lookback from it', () => {
    const r = cli('replay', 'daily', '--from', '2026-03-06', '--to', '2026-03-10', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).required_lookback).toBe(4);
  });

  it('an SQL expression as loaded_at_field is not taken as a column', () => {
    const other = writeProject({ 'dbt_project.yml': 'name: src_expr\nprofile: src_expr\n', 'models/sources.yml': sources('"datetime(loaded_at)"'), 'models/daily.sql': MODEL });
    fill(other);
    const r = runCli(['lateness', 'raw.events'], { cwd: other });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("source 'raw.events' does not declare loaded_at");
  });
});
