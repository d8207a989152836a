import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceProject } from '../support/conformance-project.js';
import { buildCrossDbProject, expectActualEqualsExpected } from '../support/cross-db-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 14): dbt's aggregate, set and comparison macros,
 * as mini-dbt ships them in the `dbt` package. Modelled on dbt-tests-adapter's
 * utils/ tests (test_any_value, test_bool_or, test_listagg, test_except,
 * test_intersect, test_equals): their seed rows and expected values, each
 * model built unqualified and as dbt.<macro>.
 *
 * Translated to run on SQLite and PostgreSQL: bool_or's expected seed says
 * true/false, which a seed loads as a boolean on PostgreSQL and as 1 and 0 on
 * SQLite (dbt-sqlite's INT), so the model maps both sides to 1 and 0.
 * test_equals counts 3 equal and 6 unequal rows with BaseUtils' own null-safe
 * `equals` (a project macro, which wins over dbt's). dbt's equals itself is
 * plain `=` unless the behavior flag enable_truthy_nulls_equals_macro is on,
 * which mini-dbt has no way to set: so NULL equals nothing and the counts are
 * 2 and 2.
 */
const MACROS = ['any_value', 'bool_or', 'listagg', 'except', 'intersect', 'equals'];

const ANY_VALUE = `
with data as (
    select * from {{ ref('data_any_value') }}
),
data_output as (
    select * from {{ ref('data_any_value_expected') }}
),
calculate as (
    select key_name, {{ any_value('static_col') }} as static_col, count(id) as num_rows
    from data
    group by key_name
)
select calculate.num_rows as actual, data_output.num_rows as expected
from calculate
left join data_output
on calculate.key_name = data_output.key_name
and calculate.static_col = data_output.static_col
`;

const BOOL_OR = `
with data as (
    select * from {{ ref('data_bool_or') }}
),
data_output as (
    select key_column, case when value then 1 when not value then 0 end as value
    from {{ ref('data_bool_or_expected') }}
),
calculate as (
    select key_column, case when {{ bool_or('val1 = val2') }} then 1 when not {{ bool_or('val1 = val2') }} then 0 end as value
    from data
    group by key_column
)
select calculate.value as actual, data_output.value as expected
from calculate
left join data_output
on calculate.key_column = data_output.key_column
`;

const LISTAGG = `
with data as (
    select * from {{ ref('data_listagg') }}
),
data_output as (
    select * from {{ ref('data_listagg_output') }}
),
calculate as (
    select group_col, {{ listagg('string_text', "'_|_'", "order by order_col") }} as actual, 'bottom_ordered' as version
    from data
    group by group_col
    union all
    select group_col, {{ listagg('string_text', "'_|_'", "order by order_col", 2) }} as actual, 'bottom_ordered_limited' as version
    from data
    group by group_col
    union all
    select group_col, {{ listagg('string_text', "', '") }} as actual, 'comma_whitespace_unordered' as version
    from data
    where group_col = 3
    group by group_col
    union all
    select group_col, {{ listagg('DISTINCT string_text', "','") }} as actual, 'distinct_comma' as version
    from data
    where group_col = 3
    group by group_col
    union all
    select group_col, {{ listagg('string_text') }} as actual, 'no_params' as version
    from data
    where group_col = 3
    group by group_col
)
select calculate.actual, data_output.expected
from calculate
left join data_output
on calculate.group_col = data_output.group_col
and calculate.version = data_output.version
`;

const EMPTY = (of: string) => `select * from {{ ref('data_${of}_a') }}\nwhere 0=1\n`;
const SET_OP = (macro: string, left: string, right: string) => `select * from {{ ref('${left}') }}\n{{ ${macro}() }}\nselect * from {{ ref('${right}') }}\n`;

const EQUALS = (negate: boolean) => `
with data as (
    select * from {{ ref('data_equals') }}
)
select *
from data
where
  ${negate ? 'not ' : ''}{{ equals('x', 'y') }}
`;

describeEachEngine("dbt's aggregate macros (dbt-tests-adapter utils/)", (engine) => {
  let project: ConformanceProject;
  beforeAll(() => {
    project = buildCrossDbProject({
      macros: MACROS,
      seeds: {
        data_any_value: 'id,key_name,static_col\n1,abc,dbt\n2,abc,dbt\n3,jkl,dbt\n4,jkl,dbt\n5,jkl,dbt\n6,xyz,test\n',
        data_any_value_expected: 'key_name,static_col,num_rows\nabc,dbt,2\njkl,dbt,3\nxyz,test,1\n',
        data_bool_or: 'key_column,val1,val2\nabc,1,1\nabc,1,0\ndef,1,0\nhij,1,1\nhij,1,\nklm,1,0\nklm,1,\n',
        data_bool_or_expected: 'key_column,value\nabc,true\ndef,false\nhij,true\nklm,false\n',
        data_listagg: 'group_col,string_text,order_col\n1,a,1\n1,b,2\n1,c,3\n2,a,2\n2,1,1\n2,p,3\n3,g,1\n3,g,2\n3,g,3\n',
        data_listagg_output: [
          'group_col,expected,version',
          '1,"a_|_b_|_c",bottom_ordered',
          '2,"1_|_a_|_p",bottom_ordered',
          '3,"g_|_g_|_g",bottom_ordered',
          '1,"a_|_b",bottom_ordered_limited',
          '2,"1_|_a",bottom_ordered_limited',
          '3,"g_|_g",bottom_ordered_limited',
          '3,"g, g, g",comma_whitespace_unordered',
          '3,"g",distinct_comma',
          '3,"g,g,g",no_params',
          '',
        ].join('\n'),
        data_except_a: 'id\n1\n2\n3\n',
        data_except_b: 'id\n3\n4\n5\n',
        data_except_a_minus_b: 'id\n1\n2\n',
        data_except_b_minus_a: 'id\n4\n5\n',
        data_intersect_a: 'id\n1\n2\n3\n',
        data_intersect_b: 'id\n3\n4\n5\n',
        data_intersect_a_overlap_b: 'id\n3\n',
        data_equals: 'key_name,x,y,expected\n1,1,1,same\n2,1,2,different\n3,1,null,different\n4,2,1,different\n5,2,2,same\n6,2,null,different\n7,null,1,different\n8,null,2,different\n9,null,null,same\n',
      },
      models: {
        test_any_value: ANY_VALUE,
        test_bool_or: BOOL_OR,
        test_listagg: LISTAGG,
        data_except_empty: EMPTY('except'),
        test_except_a_minus_b: SET_OP('except', 'data_except_a', 'data_except_b'),
        test_except_b_minus_a: SET_OP('except', 'data_except_b', 'data_except_a'),
        test_except_a_minus_a: SET_OP('except', 'data_except_a', 'data_except_a'),
        test_except_a_minus_empty: SET_OP('except', 'data_except_a', 'data_except_empty'),
        test_except_empty_minus_a: SET_OP('except', 'data_except_empty', 'data_except_a'),
        test_except_empty_minus_empty: SET_OP('except', 'data_except_empty', 'data_except_empty'),
        data_intersect_empty: EMPTY('intersect'),
        test_intersect_a_overlap_b: SET_OP('intersect', 'data_intersect_a', 'data_intersect_b'),
        test_intersect_b_overlap_a: SET_OP('intersect', 'data_intersect_b', 'data_intersect_a'),
        test_intersect_a_overlap_a: SET_OP('intersect', 'data_intersect_a', 'data_intersect_a'),
        test_intersect_a_overlap_empty: SET_OP('intersect', 'data_intersect_a', 'data_intersect_empty'),
        test_intersect_empty_overlap_a: SET_OP('intersect', 'data_intersect_empty', 'data_intersect_a'),
        test_intersect_empty_overlap_empty: SET_OP('intersect', 'data_intersect_empty', 'data_intersect_empty'),
        equal_values: EQUALS(false),
        not_equal_values: EQUALS(true),
      },
    }, engine);
  });

  /** dbt's check_relations_equal, for both copies of the model. */
  function expectSameRows(model: string, expected: string): void {
    for (const relation of [model, `${model}_qualified`]) expect(project.difference(relation, expected), `${relation} vs ${expected}`).toBe(0);
  }

  it('any_value: one value of the group (test_any_value)', () => {
    expect(expectActualEqualsExpected(project, 'test_any_value')).toHaveLength(3);
  });

  it('bool_or: true when any row is, NULLs skipped (test_bool_or)', () => {
    expect(expectActualEqualsExpected(project, 'test_bool_or')).toHaveLength(4);
  });

  it('listagg: ordered, ordered with a limit, a delimiter, DISTINCT, no params (test_listagg)', () => {
    expect(expectActualEqualsExpected(project, 'test_listagg')).toHaveLength(9);
  });

  describe("dbt's set macros (dbt-tests-adapter utils/)", () => {
    it('except: each way, with itself and with an empty relation (test_except)', () => {
      expectSameRows('test_except_a_minus_b', 'data_except_a_minus_b');
      expectSameRows('test_except_b_minus_a', 'data_except_b_minus_a');
      expectSameRows('test_except_a_minus_a', 'data_except_empty');
      expectSameRows('test_except_a_minus_empty', 'data_except_a');
      expectSameRows('test_except_empty_minus_a', 'data_except_empty');
      expectSameRows('test_except_empty_minus_empty', 'data_except_empty');
      expect(project.count('test_except_a_minus_b')).toBe(2);
    });

    it('intersect: each way, with itself and with an empty relation (test_intersect)', () => {
      expectSameRows('test_intersect_a_overlap_b', 'data_intersect_a_overlap_b');
      expectSameRows('test_intersect_b_overlap_a', 'data_intersect_a_overlap_b');
      expectSameRows('test_intersect_a_overlap_a', 'data_intersect_a');
      expectSameRows('test_intersect_a_overlap_empty', 'data_intersect_empty');
      expectSameRows('test_intersect_empty_overlap_a', 'data_intersect_empty');
      expectSameRows('test_intersect_empty_overlap_empty', 'data_intersect_empty');
      expect(project.count('test_intersect_a_overlap_b')).toBe(1);
    });
  });

  describe("dbt's equals (dbt-tests-adapter utils/test_equals)", () => {
    it("without the truthy-nulls behavior flag, plain '=': 2 same and 2 different rows, NULLs in neither", () => {
      for (const suffix of ['', '_qualified']) {
        expect(project.rows(`equal_values${suffix}`, 'key_name').map((r) => [r.key_name, r.expected])).toEqual([[1, 'same'], [5, 'same']]);
        expect(project.rows(`not_equal_values${suffix}`, 'key_name').map((r) => [r.key_name, r.expected])).toEqual([[2, 'different'], [4, 'different']]);
      }
    });
  });
});
