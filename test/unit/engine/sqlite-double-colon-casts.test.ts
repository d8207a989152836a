import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rewriteDoubleColonCasts } from '../../../src/engine/sqlite/sqlite-double-colon-casts.js';
import { rewriteForSqlite } from '../../../src/engine/sqlite/sqlite-rewrites.js';

describe("rewriteDoubleColonCasts: PostgreSQL's expr::type on SQLite", () => {
  it('casts the primary expression before :: to the type after it', () => {
    expect(rewriteDoubleColonCasts('select id::text from t')).toBe('select cast(id as text) from t');
    expect(rewriteDoubleColonCasts('select (price / 100)::numeric(16, 2) as p')).toBe('select cast((price / 100) as numeric(16, 2)) as p');
    expect(rewriteDoubleColonCasts("select '2024-01-01'::date")).toBe("select cast('2024-01-01' as date)");
    expect(rewriteDoubleColonCasts('select t.amount::real, "Weird Col"::int, s."x".y::bigint from t')).toBe('select cast(t.amount as real), cast("Weird Col" as int), cast(s."x".y as bigint) from t');
    expect(rewriteDoubleColonCasts('select coalesce(a, 0)::int, 1.5::int')).toBe('select cast(coalesce(a, 0) as int), cast(1.5 as int)');
    expect(rewriteDoubleColonCasts('select x :: double precision, y::timestamp without time zone, z::character varying(10), w::int[]')).toBe(
      'select cast(x as double precision), cast(y as timestamp without time zone), cast(z as character varying(10)), cast(w as int[])',
    );
  });

  it('casts a chain from the left, binds tighter than operators, and leaves keywords out of the operand', () => {
    expect(rewriteDoubleColonCasts('select x::text::int')).toBe('select cast(cast(x as text) as int)');
    expect(rewriteDoubleColonCasts('select a + b::int')).toBe('select a + cast(b as int)');
    expect(rewriteDoubleColonCasts('select (a+b)::int from t')).toBe('select cast((a+b) as int) from t');
    expect(rewriteDoubleColonCasts('select case when x then 1::int end')).toBe('select case when x then cast(1 as int) end');
  });

  it('never touches strings, quoted names or comments, and leaves what it cannot read for SQLite to refuse', () => {
    for (const sql of ["select 'a::b' as s", 'select "a::b" from t', '-- x::int\nselect 1', '/* x::int */ select 1', 'select :name, a[1:2] from t']) {
      expect(rewriteDoubleColonCasts(sql)).toBe(sql);
    }
    expect(rewriteDoubleColonCasts('select ::int')).toBe('select ::int');
  });

  it('gives SQLite what PostgreSQL would compute (with the date rewrite after it)', () => {
    const db = new Database(':memory:');
    const one = (sql: string) => db.prepare(rewriteForSqlite(sql)).pluck().get();
    expect(one('select (1799 / 100.0)::numeric(16, 2)')).toBe(17.99);
    expect(one("select '42'::int + 1")).toBe(43);
    expect(one("select '2024-01-07 10:00:00'::date")).toBe('2024-01-07');
    expect(one("select ('x' || 1::text)")).toBe('x1');
    db.close();
  });
});
