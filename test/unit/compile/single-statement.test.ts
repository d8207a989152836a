import { describe, expect, it } from 'vitest';
import { requireOneStatement, splitFirstStatement } from '../../../src/compile/single-statement.js';
import { ProjectError } from '../../../src/errors/project-error.js';

const owner = { what: "model 'x'", file: 'models/x.sql', rule: 'a model is one select', lineOf: () => 3 };

describe('a model is exactly one statement', () => {
  it.each([
    ['select 1', 8],
    ["select ';' as a", 15],
    ['select 1 as "a;b"', 17],
    ['select 1 as `a;b`', 17],
    ['select 1 as [a;b]', 17],
    ["select 'it''s; fine' as a", 25],
    ['select 1 -- ; not a statement\n, 2', 33],
    ['select 1 /* ; */ , 2', 20],
    // No `;` at all: the whole text, whatever its quotes and comments (an unclosed one included).
    ["select 'a\n' as \"b\" -- c\n/* d */ from [t]", 40],
    ["select 'unclosed", 16],
    ['select 1 /* unclosed', 20],
    ['select 1\n  ', 11],
    ['', 0],
    ['select 1;', 8],
    ['select 1;\n  -- done\n /* really; done */ ;; \n', 8],
  ])('%j is one statement ending at %i', (sql, end) => {
    expect(splitFirstStatement(sql)).toEqual({ end });
  });

  it.each([
    ['select 1; delete from raw_orders', 10],
    ['select 1;delete from raw_orders', 9],
    ["select ';'; drop table t", 12],
    ['select 1; -- c\n delete from t', 16],
    ['select (1; delete from t)', 11],
  ])('%j has a second statement at %i', (sql, second) => {
    expect(splitFirstStatement(sql).second).toBe(second);
  });

  it('cuts a trailing semicolon and what follows it, and refuses a second statement naming it', () => {
    expect(requireOneStatement('select 1 as a;  -- end', owner)).toBe('select 1 as a');
    expect(requireOneStatement("select ';' as a", owner)).toBe("select ';' as a");
    let error: unknown;
    try {
      requireOneStatement('select 1 as a;\ndelete from raw_orders', owner);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ProjectError);
    expect((error as ProjectError).format()).toContain(
      "models/x.sql:3: model 'x' contains more than one SQL statement: a second one starts at 'delete from raw_orders'; a model is one select, and none of it was run",
    );
  });
});
