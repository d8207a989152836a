import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { forEachEngine } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter's unit_testing/ cases on SQLite: test_case_insensitivity.py,
 * test_invalid_input.py, test_quoted_reserved_word_column_names.py and test_types.py
 * (each of its types written the way SQLite spells it: no DATE or TIMESTAMP literals,
 * no ::casts; the fixture value still arrives as the column's type).
 */

const upstreamTest = (name: string, value: string) => `  - name: ${name}
    model: ${name}_model
    given:
      - input: ref('${name}_upstream')
        rows:
          - {tested_column: ${value}}
    expect:
      rows:
        - {tested_column: ${value}}
`;

/** test_types.py's [sql_value, yaml_value] pairs, in SQLite's spelling. */
const TYPES: readonly (readonly [string, string, string])[] = [
  ['integer', '1', '1'],
  ['text_one', "'1'", '1'],
  ['boolean', 'true', 'true'],
  ['date', "'2020-01-02'", '2020-01-02'],
  ['timestamp', "'2013-11-03 00:00:00-0'", '2013-11-03 00:00:00-0'],
  ['numeric', "cast('1' as numeric)", '1'],
  ['json', `'{"bar": "baz", "balance": 7.77, "active": false}'`, `'{"bar": "baz", "balance": 7.77, "active": false}'`],
  ['real', 'cast(7.77 as real)', '7.77'],
];

forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('unit tests: dbt-tests-adapter unit_testing/', () => {
    it('test_types.py: each type round-trips from a fixture through the model to the expected row (one project, every type)', () => {
      const files: Record<string, string> = {};
      let yml = 'unit_tests:\n';
      for (const [name, sql, yaml] of TYPES) {
        files[`models/${name}_upstream.sql`] = `select\n  ${sql} as tested_column\n`;
        files[`models/${name}_model.sql`] = `select\n    tested_column from {{ ref('${name}_upstream')}}\n`;
        yml += upstreamTest(name, yaml);
      }
      // test_types.py's varchar regression (dbt-core #11974): a fixture string longer than the upstream's values.
      files['models/length_upstream.sql'] = "select 'abc' as tested_column\n";
      files['models/length_model.sql'] = "select tested_column, length(tested_column) as col_len from {{ ref('length_upstream')}}\n";
      yml += "  - name: length\n    model: length_model\n    given:\n      - input: ref('length_upstream')\n        rows:\n          - {tested_column: \"longer_string_value\"}\n    expect:\n      rows:\n        - {tested_column: \"longer_string_value\", col_len: 19}\n";
      const p = onEngine({ ...files, 'models/schema.yml': yml });
      expect(p.dbt(['run']).code).toBe(0);
      const out = p.dbt(['test']);
      expect(out.code, out.stdout).toBe(0);
      expect(Object.values(out.statuses)).toEqual(Array(TYPES.length + 1).fill('pass'));
    });

    it('test_case_insensitivity.py and test_quoted_reserved_word_column_names.py: column names in any case; a reserved word as a column', () => {
      const p = onEngine({
        'models/my_model.sql': "select\n    tested_column from {{ ref('my_upstream_model')}}\n",
        'models/my_upstream_model.sql': 'select 1 as tested_column\n',
        'models/reserved.sql': "select\n    * from {{ ref('reserved_upstream')}}\n",
        'models/reserved_upstream.sql': 'select 1 as "GROUP"\n',
        'tests/fixtures/input_fixture.csv': '\nGROUP\n1\n2\n3\n',
        'tests/fixtures/expect_fixture.csv': '\nGROUP\n1\n2\n3\n',
        'models/unit_tests.yml': `unit_tests:
  - name: test_my_model
    model: my_model
    given:
      - input: ref('my_upstream_model')
        rows:
          - {tested_column: 1}
          - {TESTED_COLUMN: 2}
          - {tested_colUmn: 3}
    expect:
      rows:
          - {tested_column: 1}
          - {TESTED_COLUMN: 2}
          - {tested_colUmn: 3}
  - name: test_reserved
    model: reserved
    given:
      - input: ref('reserved_upstream')
        format: csv
        fixture: input_fixture
    expect:
      format: csv
      fixture: expect_fixture
`,
      });
      expect(p.dbt(['run']).code).toBe(0);
      const out = p.dbt(['test']);
      expect(out.code, out.stdout).toBe(0);
      expect(out.statuses).toEqual({ 'unit_test.conformance.my_model.test_my_model': 'pass', 'unit_test.conformance.reserved.test_reserved': 'pass' });
    });

    it('test_invalid_input.py: a column the input or the model does not have is named, with dbt\'s wording', () => {
      const p = onEngine({
        'models/my_model.sql': "select\n    tested_column from {{ ref('my_upstream_model')}}\n",
        'models/my_upstream_model.sql': 'select 1 as tested_column\n',
        'models/unit_tests.yml': `unit_tests:
  - name: test_invalid_input_column_name
    model: my_model
    given:
      - input: ref('my_upstream_model')
        rows:
          - {invalid_column_name: 1}
    expect:
      rows:
          - {tested_column: 1}
  - name: test_invalid_expect_column_name
    model: my_model
    given:
      - input: ref('my_upstream_model')
        rows:
          - {tested_column: 1}
    expect:
      rows:
          - {invalid_column_name: 1}
`,
      });
      expect(p.dbt(['run']).code).toBe(0);
      const input = p.dbt(['test', '--select', 'test_name:test_invalid_input_column_name']);
      expect(input.code).toBe(1);
      expect(input.stdout).toContain("Invalid column name: 'invalid_column_name' in unit test fixture for 'my_upstream_model'.");
      const expected = p.dbt(['test', '--select', 'test_name:test_invalid_expect_column_name']);
      expect(expected.code).toBe(1);
      expect(expected.stdout).toContain("Invalid column name: 'invalid_column_name' in unit test fixture for expected output.");
    });

    it("dbt-core's test_ut_names.py, test_ut_macros.py, test_ut_aliases.py: one test name on two models, macros composed in the model, an aliased input", () => {
      const p = onEngine({
        'models/my_model_a.sql': "{{ config(materialized='table') }}\n{% set one = macro_one() %}\n{% set two = macro_two() %}\n{% set one_plus_two = one + two %}\nselect {{ one_plus_two }} as id\n",
        'models/my_model_b.sql': 'select 2 as id\n',
        'macros/my_macros.sql': '{% macro macro_one() -%}\n    {{ return(1) }}\n{%- endmacro %}\n{% macro macro_two() -%}\n    {{ return(2) }}\n{%- endmacro %}\n',
        'models/model_with_alias.sql': "{{ config(alias='beautiful_alias', materialized='view') }}\nselect 'foo' as foo\n",
        'models/model_tested.sql': "select * from {{ ref('model_with_alias') }}\n",
        'models/unit.yml': `unit_tests:
  - name: my_test_name
    model: my_model_a
    given: []
    expect:
      rows: [{id: 3}]
  - name: my_test_name
    model: my_model_b
    given: []
    expect:
      rows: [{id: 2}]
  - name: test_model_with_alias_input
    model: model_tested
    given:
      - input: ref('model_with_alias')
        rows:
          - {foo: bar }
          - {foo: foo }
    expect:
      rows:
          - {foo: bar }
          - {foo: foo }
`,
      });
      expect(p.dbt(['run']).code).toBe(0);
      const all = p.dbt(['test']);
      expect(all.code, all.stdout).toBe(0);
      expect(all.stdout).toContain('my_model_a::my_test_name');
      expect(all.stdout).toContain('my_model_b::my_test_name');
      expect(Object.keys(p.dbt(['test', '--select', 'test_name:my_test_name']).statuses).sort()).toEqual(['unit_test.conformance.my_model_a.my_test_name', 'unit_test.conformance.my_model_b.my_test_name']);
      expect(Object.keys(p.dbt(['test', '--select', 'my_model_a,test_name:my_test_name']).statuses)).toEqual(['unit_test.conformance.my_model_a.my_test_name']);
      expect(Object.keys(p.dbt(['test', '--select', 'my_model_b']).statuses)).toEqual(['unit_test.conformance.my_model_b.my_test_name']);
      expect(all.statuses['unit_test.conformance.model_tested.test_model_with_alias_input']).toBe('pass');
    });
  });
});
