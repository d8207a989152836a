import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter column_types/test_column_types.py: a generic test `is_type` reads the model's
 * columns with adapter.get_columns_in_relation and checks each with dbt's Column.is_integer,
 * is_float, is_numeric, is_number and is_string. On PostgreSQL dbt's fixture runs as it is and its
 * one test passes. SQLite declares a CREATE TABLE AS column by its affinity (INT, REAL, NUM, TEXT),
 * which dbt-sqlite reports as it is (TEXT as dbt's string type, character varying(256)): dbt's
 * Column knows REAL as a float and TEXT as a string, but not INT as an integer nor NUM as a numeric.
 * That is dbt-sqlite's answer, kept (dbt-sqlite does not run this suite): the fixture's map fails
 * there, naming those columns, and a map stating what SQLite reports passes.
 */
const MACRO = `{% macro simple_type_check_column(column, check) %}
    {% if check == 'string' %}
        {{ return(column.is_string()) }}
    {% elif check == 'float' %}
        {{ return(column.is_float()) }}
    {% elif check == 'number' %}
        {{ return(column.is_number()) }}
    {% elif check == 'numeric' %}
        {{ return(column.is_numeric()) }}
    {% elif check == 'integer' %}
        {{ return(column.is_integer()) }}
    {% else %}
        {% do exceptions.raise_compiler_error('invalid type check value: ' ~ check) %}
    {% endif %}
{% endmacro %}

{% macro type_check_column(column, type_checks) %}
    {% set failures = [] %}
    {% for type_check in type_checks %}
        {% if type_check.startswith('not ') %}
            {% if simple_type_check_column(column, type_check[4:]) %}
                {% do log('simple_type_check_column got ', True) %}
                {% do failures.append(type_check) %}
            {% endif %}
        {% else %}
            {% if not simple_type_check_column(column, type_check) %}
                {% do failures.append(type_check) %}
            {% endif %}
        {% endif %}
    {% endfor %}
    {% if (failures | length) > 0 %}
        {% do log('column ' ~ column.name ~ ' had failures: ' ~ failures, info=True) %}
    {% endif %}
    {% do return((failures | length) == 0) %}
{% endmacro %}

{% test is_type(model, column_map) %}
    {% if not execute %}
        {{ return(None) }}
    {% endif %}
    {% if not column_map %}
        {% do exceptions.raise_compiler_error('test_is_type must have a column name') %}
    {% endif %}
    {% set columns = adapter.get_columns_in_relation(model) %}
    {% if (column_map | length) != (columns | length) %}
        {% set column_map_keys = (column_map | list | string) %}
        {% set column_names = (columns | map(attribute='name') | list | string) %}
        {% do exceptions.raise_compiler_error('did not get all the columns/all columns not specified:\\n' ~ column_map_keys ~ '\\nvs\\n' ~ column_names) %}
    {% endif %}
    {% set bad_columns = [] %}
    {% for column in columns %}
        {% set column_key = (column.name | lower) %}
        {% if column_key in column_map %}
            {% set type_checks = column_map[column_key] %}
            {% if not type_checks %}
                {% do exceptions.raise_compiler_error('no type checks?') %}
            {% endif %}
            {% if not type_check_column(column, type_checks) %}
                {% do bad_columns.append(column.name) %}
            {% endif %}
        {% else %}
            {% do exceptions.raise_compiler_error('column key ' ~ column_key ~ ' not found in ' ~ (column_map | list | string)) %}
        {% endif %}
    {% endfor %}
    {% do log('bad columns: ' ~ bad_columns, info=True) %}
    {% for bad_column in bad_columns %}
      select '{{ bad_column }}' as bad_column
      {{ 'union all' if not loop.last }}
    {% endfor %}
      select * from (select 1 limit 0) as nothing
{% endtest %}
`;

const MODEL: Record<EngineName, string> = {
  // dbt's fixture, as it is.
  postgres: `select
    1::smallint as smallint_col,
    2::integer as int_col,
    3::bigint as bigint_col,
    4.0::real as real_col,
    5.0::double precision as double_col,
    6.0::numeric as numeric_col,
    '7'::text as text_col,
    '8'::varchar(20) as varchar_col
`,
  // The same casts in SQLite's syntax (it has no ::), built as a table (the fixture's default materialization is a view).
  sqlite: `{{ config(materialized='table') }}
select
    cast(1 as smallint) as smallint_col,
    cast(2 as integer) as int_col,
    cast(3 as bigint) as bigint_col,
    cast(4.0 as real) as real_col,
    cast(5.0 as double precision) as double_col,
    cast(6.0 as numeric) as numeric_col,
    cast('7' as text) as text_col,
    cast('8' as varchar(20)) as varchar_col
`,
};

const FIXTURE_MAP = `            smallint_col: ['integer', 'number']
            int_col: ['integer', 'number']
            bigint_col: ['integer', 'number']
            real_col: ['float', 'number']
            double_col: ['float', 'number']
            numeric_col: ['numeric', 'number']
            text_col: ['string', 'not number']
            varchar_col: ['string', 'not number']
`;

/** What dbt's Column says of SQLite's affinities: INT and NUM are none of integer, numeric, number. */
const SQLITE_MAP = `            smallint_col: ['not integer', 'not number', 'not string']
            int_col: ['not integer', 'not number', 'not string']
            bigint_col: ['not integer', 'not number', 'not string']
            real_col: ['float', 'number']
            double_col: ['float', 'number']
            numeric_col: ['not numeric', 'not number', 'not string']
            text_col: ['string', 'not number']
            varchar_col: ['string', 'not number']
`;

const schemaYml = (map: string): string => `version: 2
models:
  - name: model
    data_tests:
      - is_type:
          column_map:
${map}`;

describeEachEngine('column types (dbt-tests-adapter column_types)', (engine) => {
  it(engine === 'postgres' ? "TestPostgresColumnTypes: dbt's fixture: one model, one is_type test, passing" : "SQLite's affinities as dbt-sqlite reports them: the fixture's map names INT and NUM columns; SQLite's own map passes", () => {
    // SQLite takes NOTHING as a keyword (upsert's DO NOTHING): the fixture's last alias is renamed there.
    const macro = engine === 'sqlite' ? MACRO.replace('as nothing', 'as no_rows') : MACRO;
    const p = conformanceProject({ 'macros/test_is_type.sql': macro, 'models/model.sql': MODEL[engine], 'models/schema.yml': schemaYml(FIXTURE_MAP) }, 'conformance', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results).toHaveLength(1);
    expect(p.rows('model')).toHaveLength(1);
    const test = p.dbt(['test']);
    expect(test.results).toHaveLength(1);
    if (engine === 'postgres') {
      expect(test.code, test.stdout + test.stderr).toBe(0);
      expect(test.results[0]!.status).toBe('pass');
      expect(test.stdout).toContain('bad columns: []');
      return;
    }
    // dbt's fixture then writes SQL that does not parse (no union all before its last select): the test errors.
    expect(test.code).toBe(1);
    expect(test.results[0]!.status).toBe('error');
    expect(test.stdout).toContain("bad columns: ['smallint_col', 'int_col', 'bigint_col', 'numeric_col']");
    p.write('models/schema.yml', schemaYml(SQLITE_MAP));
    const own = p.dbt(['test']);
    expect(own.code, own.stdout + own.stderr).toBe(0);
    expect(own.results[0]!.status).toBe('pass');
    expect(own.stdout).toContain('bad columns: []');
  });
});
