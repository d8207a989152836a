import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): `show`. Modelled on dbt-core's
 * tests/functional/show/test_show.py (its fixtures: a seed, a model over it, a
 * second model, an ephemeral model and an ephemeral of it): --select, --inline,
 * --limit (default 5, -1 for all), --output json, ephemerals inlined, a seed,
 * the "Either --select or --inline" error, an unknown ref in --inline. And
 * what mini-dbt adds: an --inline query that is not a SELECT changes nothing.
 */
const files = {
  'seeds/sample_seed.csv': 'sample_num,sample_bool\n1,true\n2,false\n3,true\n4,false\n5,true\n6,false\n7,true\n',
  'models/sample_model.sql': "select * from {{ ref('sample_seed') }}\n",
  'models/second_model.sql': "select\n    sample_num as col_one,\n    sample_bool as col_two,\n    42 as answer\nfrom {{ ref('sample_model') }}\n",
  'models/ephemeral_model.sql': "{{ config(materialized = 'ephemeral') }}\nselect\n    coalesce(sample_num, 0) + 10 as col_deci\nfrom {{ ref('sample_model') }}\n",
  'models/sample_number_model.sql': 'select cast(1.0 as int) as float_to_int_field, 3.0 as float_field, 4.3 as float_with_dec_field, 5 as int_field\n',
};
const SECOND_EPHEMERAL = "{{ config(materialized = 'ephemeral') }}\nselect\n    col_deci + 100 as col_hundo\nfrom {{ ref('ephemeral_model') }}\n";

/** The table rows of a text preview (after the `| --- |` rule). */
const tableRows = (stdout: string): string[] => {
  const lines = stdout.split('\n');
  const rule = lines.findIndex((l) => /^\| -+ /.test(l));
  return rule < 0 ? [] : lines.slice(rule + 1).filter((l) => l.startsWith('|'));
};

describeEachEngine('show (dbt-core tests/functional/show)', (engine) => {
  const p = conformanceProject(files, 'show', { engine });
  // The seed's true/false column: a boolean on PostgreSQL (dbt-postgres's seed type), printed as agate
  // prints a bool (True / False) and a JSON boolean; on SQLite dbt-sqlite's INT column of 1 and 0, numbers.
  const yes = engine === 'postgres' ? 'True' : '1';
  const no = engine === 'postgres' ? 'False' : '0';
  // Booleans and numbers are right-aligned, as agate prints every non-text column.
  const flag = (text: string, width: number) => text.padStart(width);
  const json = (b: boolean): unknown => (engine === 'postgres' ? b : b ? 1 : 0);
  const built = p.dbt(['build']);

  it('builds the fixture project', () => {
    expect(built.code, built.stdout + built.stderr).toBe(0);
  });

  it('--select previews one model as a table, under its heading (TestShowSelectText)', () => {
    const out = p.dbt(['show', '--select', 'second_model']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("Previewing node 'second_model':");
    expect(out.stdout).not.toContain("Previewing node 'sample_model'");
    const lines = out.stdout.split('\n');
    const head = lines.findIndex((l) => l.includes('Previewing node'));
    expect(lines[head + 1]).toBe('| col_one | col_two | answer |');
    expect(lines[head + 2]).toBe('| ------- | ------- | ------ |');
    // Text left-aligned, everything else right-aligned, as agate prints them; the default limit is 5 rows.
    expect(tableRows(out.stdout)).toEqual([
      `|       1 | ${flag(yes, 7)} |     42 |`, `|       2 | ${flag(no, 7)} |     42 |`, `|       3 | ${flag(yes, 7)} |     42 |`, `|       4 | ${flag(no, 7)} |     42 |`, `|       5 | ${flag(yes, 7)} |     42 |`,
    ]);
  });

  it('--select with two names previews both (TestShowMultiple)', () => {
    const out = p.dbt(['show', '--select', 'sample_model second_model']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("Previewing node 'sample_model':");
    expect(out.stdout).toContain("Previewing node 'second_model':");
    expect(out.stdout).toContain('sample_num');
    expect(out.stdout).toContain('sample_bool');
  });

  it("--output json is dbt's {node, show} with numbers as numbers; --quiet leaves only the JSON (TestShowSingle, TestShowNumeric)", () => {
    const loud = p.dbt(['show', '--select', 'sample_model', '--output', 'json']);
    expect(loud.code, loud.stderr).toBe(0);
    expect(loud.stdout).not.toContain("Previewing node 'sample_model'");
    expect(() => JSON.parse(loud.stdout)).toThrow();
    const quiet = p.dbt(['show', '--quiet', '--select', 'sample_model', '--output', 'json']);
    expect(JSON.parse(quiet.stdout)).toEqual({ node: 'sample_model', show: [1, 2, 3, 4, 5].map((n) => ({ sample_num: n, sample_bool: json(n % 2 === 1) })) });
    const numbers = p.dbt(['-q', 'show', '--select', 'sample_number_model', '--output', 'json']);
    expect(numbers.stdout).toContain('"float_to_int_field": 1,');
    expect(numbers.stdout).toContain('"float_with_dec_field": 4.3');
    expect(numbers.stdout).toContain('"int_field": 5');
  });

  it('--inline renders Jinja against the project and previews it (TestShowInline); --quiet drops the heading', () => {
    const out = p.dbt(['show', '--inline', "select * from {{ ref('sample_model') }} where sample_num > {{ var('floor', 5) }}"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('Previewing inline node:');
    expect(tableRows(out.stdout)).toEqual([`|          6 | ${flag(no, 11)} |`, `|          7 | ${flag(yes, 11)} |`]);
    const quiet = p.dbt(['show', '--quiet', '--inline', "select * from {{ ref('sample_model') }}"]);
    expect(quiet.stdout).not.toContain('Previewing inline node');
    expect(quiet.stdout).toContain('sample_num');
    // An inline query's JSON has no node name, as dbt's.
    const json = p.dbt(['-q', 'show', '--inline', 'select 1 as one', '--output', 'json']);
    expect(JSON.parse(json.stdout)).toEqual({ show: [{ one: 1 }] });
  });

  it('an ephemeral model is previewed with its CTEs inlined, by --select and through --inline (TestShowEphemeral, TestShowSecondEphemeral)', () => {
    const selected = p.dbt(['show', '--select', 'ephemeral_model']);
    expect(selected.code, selected.stderr).toBe(0);
    expect(selected.stdout).toContain('col_deci');
    expect(tableRows(selected.stdout)[0]).toBe('|       11 |');
    const inline = p.dbt(['show', '--inline', SECOND_EPHEMERAL]);
    expect(inline.code, inline.stderr).toBe(0);
    expect(inline.stdout).toContain('col_hundo');
    expect(tableRows(inline.stdout)[0]).toBe('|       111 |');
  });

  it.each([[[], 5], [['--limit', '3'], 3], [['--limit', '-1'], 7]] as const)('--limit %j shows %i rows (test_limit)', (args, expected) => {
    const out = p.dbt(['show', '--inline', SECOND_EPHEMERAL, ...args]);
    expect(out.code, out.stderr).toBe(0);
    expect(tableRows(out.stdout)).toHaveLength(expected);
  });

  it('a seed can be previewed (TestShowSeed)', () => {
    const out = p.dbt(['show', '--select', 'sample_seed']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("Previewing node 'sample_seed':");
  });

  it('neither --select nor --inline is an error in dbt\'s words (TestShowNone)', () => {
    const out = p.dbt(['show']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('Either --select or --inline must be passed to show');
  });

  it("an unknown ref in --inline names the missing node (TestShowInlineFail); an unknown --select names the closest", () => {
    const out = p.dbt(['show', '--inline', "select * from {{ ref('third_model') }}"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("depends on a node named 'third_model' which was not found");
    const typo = p.dbt(['show', '--select', 'secnd_model']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("no model, seed, snapshot or analysis named 'secnd_model'. Did you mean 'second_model'?");
  });

  it('an --inline query that is not one SELECT is refused and changes nothing; a write hidden in a CTE cannot run either', () => {
    const before = p.rows('sample_seed');
    for (const sql of ['delete from sample_seed', "select 1; delete from sample_seed", 'drop table sample_seed']) {
      const out = p.dbt(['show', '--inline', sql]);
      expect(out.code, sql).toBe(2);
      expect(out.stderr, sql).toContain('must be a single SELECT');
    }
    // SQLite refuses DML inside a WITH's SELECT, and the connection is read-only besides.
    const hidden = p.dbt(['show', '--inline', 'with gone as (delete from sample_seed returning *) select * from gone']);
    expect(hidden.code).not.toBe(0);
    expect(p.rows('sample_seed')).toEqual(before);
    expect(p.count('sample_seed')).toBe(7);
  });

  it('a database error in the previewed query fails with Database Error (TestShowInlineFailDB)', () => {
    const out = p.dbt(['show', '--inline', 'select nope from sample_seed']);
    expect(out.code).toBe(1);
    // The engine's own words for the missing column.
    expect(out.stderr).toContain(engine === 'postgres' ? 'Database Error in inline query: column "nope" does not exist' : 'Database Error in inline query: no such column: nope');
  });
});
