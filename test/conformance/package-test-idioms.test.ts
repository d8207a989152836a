import { beforeAll, describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject, type Invocation } from '../support/conformance-project.js';

/**
 * Idioms dbt_utils' own integration_tests project relies on (its tests compare what a macro gives
 * with what it should), each in a small project built on SQLite and read row by row:
 * - `{% set ns.attr %}...{% endset %}`: Jinja's block set of a namespace attribute (the
 *   get_query_results_as_dict test collects its message so);
 * - `set(a) != set(b)`: Python sets compare whatever their order (dbt_utils.equality checks that
 *   two relations have the same columns so, and a union's columns come in another order);
 * - `x / cast(n as numeric(28,6))` (dbt's type_numeric(), dbt_utils.not_null_proportion): a
 *   division by a decimal is not an integer division on SQLite either.
 */

const SAME_COLUMNS = `{% test same_column_set(model, other) %}
{% set mine = set(adapter.get_columns_in_relation(model) | map(attribute='name') | map('lower')) %}
{% set theirs = set(adapter.get_columns_in_relation(other) | map(attribute='name') | map('lower')) %}
select * from {{ model }} where {{ 0 if mine == theirs else 1 }} = 1 and {{ 0 if mine != theirs else 1 }} = 0
{% endtest %}
`;

const CAPTURED = `{% set ns = namespace(msg='', loud='') %}
{% for i in [1, 2, 3] %}
  {% set ns.msg %}{{ ns.msg }}{{ i }};{% endset %}
{% endfor %}
{% set ns.loud | upper -%}
  quiet {{ ns.msg }}
{%- endset %}
select '{{ ns.msg }}' as msg, '{{ ns.loud }}' as loud, '{{ set([1, 2]) == [1, 2] }}' as set_is_list, '{{ set([2, 1, 2]) == set([1, 2]) }}' as same_items
`;

const PROPERTIES = `models:
  - name: id_then_x
    data_tests:
      - same_column_set:
          other: ref('x_then_id')
      - same_column_set:
          other: ref('id_then_y')
`;

let p: ConformanceProject;
let build: Invocation;

beforeAll(() => {
  p = conformanceProject({
    'seeds/scores.csv': 'id,score\n1,4\n2,\n3,5\n4,6\n5,7\n6,8\n7,9\n8,1\n9,2\n10,3\n',
    'models/filled.sql': "select sum(case when score is null then 0 else 1 end) / cast(count(*) as {{ dbt.type_numeric() }}) as filled, cast(7 as decimal(10, 2)) / 2 as half, 7 / 2 as whole from {{ ref('scores') }}\n",
    'models/captured.sql': CAPTURED,
    'models/id_then_x.sql': 'select 1 as id, 2 as x\n',
    'models/x_then_id.sql': 'select 2 as X, 1 as id\n',
    'models/id_then_y.sql': 'select 1 as id, 3 as y\n',
    'models/properties.yml': PROPERTIES,
    'tests/generic/same_column_set.sql': SAME_COLUMNS,
  }, 'idioms');
  build = p.dbt(['build']);
});

describe("dbt_utils integration_tests' idioms on SQLite", () => {
  it('a division by a decimal cast (numeric(28,6), decimal(10,2)) keeps its fraction; an integer division stays one', () => {
    expect(p.rows('filled')).toEqual([{ filled: 0.9, half: 3.5, whole: 3 }]);
  });

  it("{% set ns.attr %}...{% endset %} sets the namespace's attribute, in a loop and through a filter", () => {
    expect(p.rows('captured')).toEqual([{ msg: '1;2;3;', loud: 'QUIET 1;2;3;', set_is_list: 'False', same_items: 'True' }]);
  });

  it('sets of the same names in another order are equal; with another name they are not', () => {
    const status = (prefix: string) => build.results.find((r) => r.unique_id.startsWith(`test.idioms.${prefix}`))?.status;
    expect(status('same_column_set_id_then_x_ref_x_then_id_')).toBe('pass');
    expect(status('same_column_set_id_then_x_ref_id_then_y_')).toBe('fail');
    expect(build.code).toBe(1);
  });
});
