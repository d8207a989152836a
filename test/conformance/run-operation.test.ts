import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): `run-operation`. Modelled on dbt-core's
 * tests/functional/run_operations/test_run_operations.py (happy_macros.sql and
 * sad_macros.sql, in SQLite's dialect: no `commit;` inside a statement, since
 * each statement commits on its own): a macro without args creates a table, one
 * with --args names it, run_query's result read back, a failing statement (exit 1),
 * a missing macro (exit 2, with the closest name), log() output, ref() and var().
 */
const HAPPY = `
{% macro no_args() %}
  {% if execute %}
    {% call statement(auto_begin=True) %}
      create table "{{ schema }}"."no_args" (id int)
    {% endcall %}
  {% endif %}
{% endmacro %}

{% macro table_name_args(table_name) %}
  {% if execute %}
    {% call statement(auto_begin=True) %}
      create table "{{ schema }}"."{{ table_name }}" (id int)
    {% endcall %}
  {% endif %}
{% endmacro %}

{% macro select_something(name) %}
  {% set query %}
    select 'hello, {{ name }}' as name
  {% endset %}
  {% set table = run_query(query) %}
  {% if table.columns['name'][0] != 'hello, world' %}
    {% do exceptions.raise_compiler_error("unexpected result: " ~ table) %}
  {% endif %}
  {{ log('selected ' ~ table.columns['name'][0], info=True) }}
{% endmacro %}

{% macro cleanup(model_name, keep_over) %}
  {% do run_query('delete from ' ~ ref(model_name) ~ ' where id <= ' ~ keep_over) %}
  {{ log('kept ids over ' ~ keep_over ~ ' in ' ~ ref(model_name) ~ ' (' ~ var('why', 'no reason') ~ ')', info=True) }}
{% endmacro %}

{% macro print_something() %}
  {{ log("You're doing awesome!", info=True) }}
{% endmacro %}
`;
const SAD = `
{% macro syntax_error() %}
  {% if execute %}
    {% call statement() %}
        select NOPE NOT A VALID QUERY
    {% endcall %}
  {% endif %}
{% endmacro %}
`;
const files = {
  'macros/happy_macros.sql': HAPPY,
  'macros/sad_macros.sql': SAD,
  'models/model.sql': "{{ config(materialized='table') }}\nselect 1 as id union all select 2 union all select 3\n",
};

describeEachEngine('run-operation (dbt-core tests/functional/run_operations)', (engine) => {
  it('a macro without args creates its table (test_macro_noargs), printing Running with', () => {
    const p = conformanceProject(files, 'test', { engine });
    const out = p.dbt(['run-operation', 'no_args']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/Running with mini-dbt=/);
    expect(p.relationType('no_args')).toBe('table');
    // run_results.json as dbt writes it for an operation: one result, the macro.
    expect(out.results.map((r) => [r.unique_id, r.status])).toEqual([['macro.test.no_args', 'success']]);
  });

  it('--args are the keyword arguments, as YAML or JSON (test_macro_args)', () => {
    const p = conformanceProject(files, 'test', { engine });
    expect(p.dbt(['run-operation', 'table_name_args', '--args', 'table_name: my_fancy_table']).code).toBe(0);
    expect(p.relationType('my_fancy_table')).toBe('table');
    expect(p.dbt(['run-operation', 'table_name_args', '--args', '{"table_name": "json_table"}']).code).toBe(0);
    expect(p.relationType('json_table')).toBe('table');
  });

  it('run_query returns an agate-like table, and log() prints (test_select, test_print)', () => {
    const p = conformanceProject(files, 'test', { engine });
    const out = p.dbt(['run-operation', 'select_something', '--args', '{name: world}']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('selected hello, world');
    const wrong = p.dbt(['run-operation', 'select_something', '--args', '{name: moon}']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('unexpected result');
    const printed = p.dbt(['run-operation', 'print_something']);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain("You're doing awesome!");
  });

  it('a macro may write: ref() and var() work, and the rows it deletes are gone (a cleanup operation)', () => {
    const p = conformanceProject(files, 'test', { engine });
    expect(p.dbt(['run']).code).toBe(0);
    const out = p.dbt(['run-operation', 'cleanup', '--args', '{model_name: model, keep_over: 1}', '--vars', '{why: tidy}']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`kept ids over 1 in "${engine === 'postgres' ? 'public' : 'main'}"."model" (tidy)`);
    expect(p.rows('model')).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('a failing statement fails the operation with exit 1 (test_macro_exception)', () => {
    const p = conformanceProject(files, 'test', { engine });
    const out = p.dbt(['run-operation', 'syntax_error']);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('Encountered an error while running operation:');
    expect(out.results.map((r) => [r.unique_id, r.status])).toEqual([['macro.test.syntax_error', 'error']]);
    expect(out.results[0]!.message).toContain('syntax error');
    expect(out.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
  });

  it('a macro that does not exist is exit 2, in dbt\'s words with the closest name (test_macro_missing)', () => {
    const p = conformanceProject(files, 'test', { engine });
    const out = p.dbt(['run-operation', 'this_macro_does_not_exist']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("could not find a macro with the name 'this_macro_does_not_exist' in any package");
    const typo = p.dbt(['run-operation', 'no_arg']);
    expect(typo.stderr).toContain("Did you mean 'no_args'?");
    expect(p.relationType('no_args')).toBeUndefined();
  });

  it('<project>.<macro> names a macro of the project; bad --args YAML is exit 2', () => {
    const p = conformanceProject(files, 'test', { engine });
    expect(p.dbt(['run-operation', 'test.no_args']).code).toBe(0);
    expect(p.relationType('no_args')).toBe('table');
    const bad = p.dbt(['run-operation', 'table_name_args', '--args', '[1, 2]']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("The --args argument must be a YAML dictionary, but was of type 'list'");
  });
});
