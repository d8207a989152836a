import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rewriteDateCasts } from '../../../src/engine/sqlite/sqlite-date-casts.js';

describe("rewriteDateCasts: cast(x as date) as a date on SQLite (where DATE is NUMERIC: '2024-01-07' would become 2024)", () => {
  it('reads cast(x as date) as date(x) and cast(x as timestamp) as datetime(x), any case and spacing', () => {
    expect(rewriteDateCasts("select cast('2024-01-07' as date) as d")).toBe("select date('2024-01-07') as d");
    expect(rewriteDateCasts('select CAST ( ordered_at AS DATE ) from t')).toBe('select date(ordered_at) from t');
    expect(rewriteDateCasts('select cast(x as timestamp), cast(y as datetime), cast(z as timestamp without time zone)')).toBe(
      'select datetime(x), datetime(y), datetime(z)',
    );
  });

  it('rewrites casts nested in the expression, and leaves other casts as they are', () => {
    expect(rewriteDateCasts("select cast(cast(a as text) || '-01' as date), cast(n as integer) from t")).toBe(
      "select date(cast(a as text) || '-01'), cast(n as integer) from t",
    );
    expect(rewriteDateCasts("cast(date(x, '+1 day') as date)")).toBe("date(date(x, '+1 day'))");
    expect(rewriteDateCasts("cast(case when a then b else c end as date)")).toBe('date(case when a then b else c end)');
  });

  it('never touches string literals, quoted names, comments, or a name that only contains "cast"', () => {
    const untouched = [
      "select 'cast(x as date)' as s",
      'select "cast(x as date)" from t',
      '-- cast(x as date)\nselect 1',
      '/* cast(x as date) */ select 1',
      'select forecast(x as date) from t',
      'select x as date from t',
    ];
    for (const sql of untouched) expect(rewriteDateCasts(sql)).toBe(sql);
  });

  it('reads a cast to a decimal with digits after the point as real (SQLite NUMERIC would keep 10 an integer, and 9 / 10 be 0)', () => {
    expect(rewriteDateCasts('select sum(n) / cast(count(*) as numeric(28,6)) from t')).toBe('select sum(n) / cast(count(*) as real) from t');
    expect(rewriteDateCasts('select cast(x as DECIMAL ( 10 , 2 )), cast(y as numeric(10, 0)), cast(z as numeric), cast(w as numeric(10))')).toBe(
      'select cast(x as real), cast(y as numeric(10, 0)), cast(z as numeric), cast(w as numeric(10))',
    );
    const db = new Database(':memory:');
    const value = (sql: string) => db.prepare(rewriteDateCasts(sql)).pluck().get();
    expect(db.prepare('select 9 / cast(10 as numeric(28,6))').pluck().get()).toBe(0);
    expect(value('select 9 / cast(10 as numeric(28,6))')).toBe(0.9);
    expect(value("select cast('1.2345' as numeric(28,6))")).toBe(1.2345);
    expect(value('select cast(null as decimal(10,2))')).toBeNull();
  });

  it('gives on SQLite what PostgreSQL gives: the date, not its year', () => {
    const db = new Database(':memory:');
    const value = (sql: string) => db.prepare(rewriteDateCasts(sql)).pluck().get();
    expect(db.prepare("select cast('2024-01-07' as date)").pluck().get()).toBe(2024);
    expect(value("select cast('2024-01-07' as date)")).toBe('2024-01-07');
    expect(value("select cast('2024-01-07T10:11:12' as date)")).toBe('2024-01-07');
    expect(value("select cast('2024-01-07' as timestamp)")).toBe('2024-01-07 00:00:00');
    expect(value('select cast(null as date)')).toBeNull();
  });
});
