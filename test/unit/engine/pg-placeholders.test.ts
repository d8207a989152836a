import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { numberPlaceholders } from '../../../src/engine/postgres/pg-placeholders.js';
import { holdsSeveralStatements } from '../../../src/engine/postgres/pg-statement-count.js';

describe('placeholders are numbered for PostgreSQL outside literals, identifiers and comments', () => {
  it('numbers ? in order and leaves quoted, commented and dollar-quoted text alone', () => {
    const out = numberPlaceholders(`select ?, '?', "a?b", ? -- what?\n, $$ ? $$, /* ? */ ?`, [1, 'x', null]);
    expect(out.text).toBe(`select $1, '?', "a?b", $2 -- what?\n, $$ ? $$, /* ? */ $3`);
    expect(out.values).toEqual([1, 'x', null]);
  });

  it('binds named parameters (@name and :name) once each, and leaves :: casts', () => {
    const out = numberPlaceholders('select @a, :b, @a, x::text, :missing', [{ a: 1, b: 'two' }]);
    expect(out.text).toBe('select $1, $2, $1, x::text, :missing');
    expect(out.values).toEqual([1, 'two']);
  });

  it('passes text already numbered ($1, as kysely writes it) with its values', () => {
    expect(numberPlaceholders('insert into t values ($1, $2)', ['a', 2n])).toEqual({ text: 'insert into t values ($1, $2)', values: ['a', '2'] });
  });

  it('an array of values binds as the values', () => {
    expect(numberPlaceholders('select ?, ?', [[1, 2]]).values).toEqual([1, 2]);
  });

  it('property: without ? outside literals the text is unchanged', () => {
    fc.assert(fc.property(fc.string().map((s) => s.replace(/[?@:$]/g, '')), (s) => {
      expect(numberPlaceholders(s, []).text).toBe(s);
    }));
  });
});

describe('a text with a second statement is told apart from one statement', () => {
  it.each([
    ['select 1', false],
    ['select 1;', false],
    ['select 1; -- done\n', false],
    ['select 1;;  ', false],
    ["select ';' as x", false],
    ['select 1 as "a;b"', false],
    ['select $$;$$', false],
    ['select 1; select 2', true],
    ['select 1; /* c */ drop table t', true],
  ])('%j: %s', (sql, several) => {
    expect(holdsSeveralStatements(sql)).toBe(several);
  });
});
