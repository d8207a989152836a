import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';

/**
 * Seed columns agate reads as booleans, dates and datetimes, on SQLite, as
 * dbt-sqlite loads them: its convert_boolean_type is INT and Python's sqlite3
 * binds a bool as 1 / 0, so `where flag` and `sum(flag)` work as on
 * PostgreSQL; dates and datetimes are TEXT holding what the driver writes for
 * a date (`isoformat()`) and a datetime (`isoformat(" ")`: a space, and
 * microseconds only when not zero). `column_types` still wins: a column
 * declared TEXT keeps the file's text.
 */
const FLAGS = [
  'id,is_active,day,at,iso_at,kept',
  '1,True,2024-1-5,2024-01-05 1:2:3,2024-01-05T10:00,True',
  '2,false,2024-01-06, 2024-01-06  10:00:00 ,2024-01-06T10:00:00.5,false',
  '3,,,,2024-01-07T10:00:00.000000,',
  '4, TRUE ,2024-01-08,2024-01-08 23:59:59,2024-01-08T23:59:59,TRUE',
  '5,null,null,null,null,null',
].join('\n') + '\n';

const SEEDS_YML = `version: 2
seeds:
  - name: flags
    config:
      column_types:
        kept: TEXT
`;

/** A dict of column name to its values, from a query's result, the way dbt_utils.get_query_results_as_dict builds it. */
const RESULTS_AS_DICT = `{% macro results_as_dict(query) %}
  {%- call statement('results_as_dict', fetch_result=True, auto_begin=false) -%}{{ query }}{%- endcall -%}
  {%- set by_column = {} -%}
  {%- if execute -%}
    {%- for name, column in load_result('results_as_dict').table.columns.items() -%}
      {%- do by_column.update({name: column.values()}) -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(by_column) }}
{% endmacro %}
`;

/** dbt_utils' assert_get_query_results_as_dict_objects_equal, reduced: a row per value that differs from what PostgreSQL's boolean gives. */
const DICT_TEST = `-- depends_on: {{ ref('dict_seed') }}
{% set expected = {'col_1': [1, 2, 3], 'col_2': ['a', 'b', 'c'], 'col_3': [True, False, none]} %}
{% set actual = results_as_dict("select * from " ~ ref('dict_seed') ~ " order by 1") %}
{% set ns = namespace(bad=[]) %}
{% if execute %}
  {% for key, values in expected.items() %}
    {% for i in range(values | length) %}
      {% if actual[key][i] != values[i] %}{% do ns.bad.append(key ~ '[' ~ i ~ ']') %}{% endif %}
    {% endfor %}
  {% endfor %}
{% endif %}
select 'none' as differing where 1 = 0
{% for b in ns.bad %}union all select '{{ b }}'{% endfor %}
`;

describe('seed booleans, dates and datetimes on SQLite, as dbt-sqlite stores them', () => {
  const p = conformanceProject({
    'seeds/flags.csv': FLAGS,
    'seeds/flags.yml': SEEDS_YML,
    'seeds/dict_seed.csv': 'col_1,col_2,col_3\n1,a,True\n2,b,False\n3,c,\n',
    'macros/results_as_dict.sql': RESULTS_AS_DICT,
    'models/active.sql': "select id from {{ ref('flags') }} where is_active\n",
    'models/flag_totals.sql': "select sum(is_active) as active, sum(is_active = 0) as inactive, count(is_active) as known, sum(case when is_active = 1 then id end) as active_ids from {{ ref('flags') }}\n",
    'tests/results_as_dict_equal.sql': DICT_TEST,
  }, 'seedstored');
  const built = p.dbt(['build']);

  it('declares the boolean column INT, the dates and datetimes TEXT, the declared column TEXT', () => {
    expect(built.code, built.stdout + built.stderr).toBe(0);
    expect(p.query("select name, type from pragma_table_info('flags')")).toEqual([
      { name: 'id', type: 'INTEGER' },
      { name: 'is_active', type: 'INT' },
      { name: 'day', type: 'TEXT' },
      { name: 'at', type: 'TEXT' },
      { name: 'iso_at', type: 'TEXT' },
      { name: 'kept', type: 'TEXT' },
    ]);
  });

  it("stores booleans as 1 / 0 (NULL for empty and null), dates and datetimes as Python's sqlite3 writes them, a declared column as written", () => {
    expect(p.query('select id, is_active, typeof(is_active) as kind, day, at, iso_at, kept from flags order by id')).toEqual([
      { id: 1, is_active: 1, kind: 'integer', day: '2024-01-05', at: '2024-01-05 01:02:03', iso_at: '2024-01-05 10:00:00', kept: 'True' },
      { id: 2, is_active: 0, kind: 'integer', day: '2024-01-06', at: '2024-01-06 10:00:00', iso_at: '2024-01-06 10:00:00.500000', kept: 'false' },
      { id: 3, is_active: null, kind: 'null', day: null, at: null, iso_at: '2024-01-07 10:00:00', kept: null },
      { id: 4, is_active: 1, kind: 'integer', day: '2024-01-08', at: '2024-01-08 23:59:59', iso_at: '2024-01-08 23:59:59', kept: 'TRUE' },
      { id: 5, is_active: null, kind: 'null', day: null, at: null, iso_at: null, kept: null },
    ]);
  });

  it('`where flag`, sum(flag) and comparisons with 1 / 0 read the booleans', () => {
    expect(p.rows('active', 'id')).toEqual([{ id: 1 }, { id: 4 }]);
    expect(p.rows('flag_totals')).toEqual([{ active: 2, inactive: 1, known: 3, active_ids: 5 }]);
  });

  it("get_query_results_as_dict gives 1 / 0 / None, equal to dbt_utils' expected True / False / none", () => {
    const results = p.query("select count(*) as n from dict_seed where col_3 = 1 or col_3 = 0");
    expect(results).toEqual([{ n: 2 }]);
    expect(built.stdout).toMatch(/PASS results_as_dict_equal/);
  });

  it('every load infers again: without the override the declared column becomes INT 1 / 0; with it, the text is back', () => {
    const q = p.copy();
    q.write('seeds/flags.yml', 'version: 2\nseeds:\n  - name: flags\n');
    const seeded = q.dbt(['seed']);
    expect(seeded.code, seeded.stdout + seeded.stderr).toBe(0);
    expect(q.query("select type from pragma_table_info('flags') where name = 'kept'")).toEqual([{ type: 'INT' }]);
    expect(q.query('select kept from flags order by id').map((r) => r.kept)).toEqual([1, 0, null, 1, null]);
    q.write('seeds/flags.yml', SEEDS_YML);
    expect(q.dbt(['seed']).code).toBe(0);
    expect(q.query('select kept from flags order by id').map((r) => r.kept)).toEqual(['True', 'false', null, 'TRUE', null]);
  });
});
