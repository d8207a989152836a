import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { regexpReplaceSql } from '../../../src/engine/sqlite/sqlite-regexp-replace.js';
import { openSqlite } from '../../../src/engine/sqlite/sqlite-connection.js';

describe("regexp_replace on SQLite: PostgreSQL's function", () => {
  it('replaces the first match, every match with g, ignoring case with i; \\1 and \\& are the groups and the match', () => {
    expect(regexpReplaceSql('models/staging/stg_a.sql', '.*/', '')).toBe('stg_a.sql');
    expect(regexpReplaceSql('a-b-c', '-', '+')).toBe('a+b-c');
    expect(regexpReplaceSql('a-b-c', '-', '+', 'g')).toBe('a+b+c');
    expect(regexpReplaceSql('Abc abc', 'a', 'x', 'gi')).toBe('xbc xbc');
    expect(regexpReplaceSql('Abc', 'a', 'x', 'ic')).toBe('Abc');
    expect(regexpReplaceSql('john smith', '(\\w+) (\\w+)', '\\2, \\1')).toBe('smith, john');
    expect(regexpReplaceSql('cost 5', '[[:digit:]]+', '<\\&> $1')).toBe('cost <5> $1');
    expect(regexpReplaceSql('C:\\dir\\file.sql', '.*\\\\', '')).toBe('file.sql');
  });

  it('reads . across newlines unless n makes the match newline-sensitive; NULL gives NULL; a bad flag is an error', () => {
    expect(regexpReplaceSql('a\nb', 'a.b', 'x')).toBe('x');
    expect(regexpReplaceSql('a\nb', 'a.b', 'x', 'n')).toBe('a\nb');
    expect(regexpReplaceSql('one\ntwo', '^t', 'T', 'n')).toBe('one\nTwo');
    expect(regexpReplaceSql(null, 'a', 'b')).toBeNull();
    expect(regexpReplaceSql('a', 'a', null)).toBeNull();
    expect(() => regexpReplaceSql('a', 'a', 'b', 'q')).toThrow('regexp_replace: invalid regular expression option: "q"');
    expect(() => regexpReplaceSql('a', '(', 'b')).toThrow(/regexp_replace: invalid regular expression "\("/);
  });

  it('is an SQL function on every mini-dbt connection', () => {
    const db = openSqlite(':memory:', { busyTimeoutMs: 0 });
    expect(db.value("select regexp_replace('models/marts/fct_orders.sql', '.*/', '')")).toBe('fct_orders.sql');
    expect(() => new Database(':memory:').prepare("select regexp_replace('a', 'a', 'b')").get()).toThrow(/no such function/);
  });
});
