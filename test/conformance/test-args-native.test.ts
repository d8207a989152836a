import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A data test's argument that is one `{{ expression }}` is that expression's value, as dbt's
 * add_rendered_test_kwargs renders it natively: `values: "{{ var('model_types') }}"` is the var's
 * list (dbt_project_evaluator's accepted_values on stg_naming_convention_folders), not its text,
 * which accepted_values would read character by character.
 */
describeEachEngine('data test arguments rendered natively', (engine) => {
  it("takes a var's list as accepted_values' values, a number as a number", () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: nativeargs\nversion: '1.0'\nprofile: default\nvars:\n  kinds: ['base', 'staging']\n  floor: 2\n",
      'seeds/things.csv': 'id,kind\n1,base\n2,staging\n3,marts\n',
      'macros/at_least.sql': "{% test at_least(model, column_name, minimum) %}select * from {{ model }} where {{ column_name }} < {{ minimum + 1 - 1 }}{% endtest %}",
      'seeds/schema.yml': `version: 2
seeds:
  - name: things
    columns:
      - name: kind
        data_tests:
          - accepted_values:
              arguments:
                values: "{{ var('kinds') }}"
              config:
                store_failures: true
      - name: id
        data_tests:
          - at_least:
              arguments:
                minimum: "{{ var('floor') }}"
              config:
                store_failures: true
`,
    }, 'nativeargs', { engine });
    const build = p.dbt(['build']);
    expect(build.code).toBe(1);
    const failures = (prefix: string) => build.results.find((r) => r.unique_id.startsWith(`test.nativeargs.${prefix}`))?.failures;
    // Only 'marts' is outside the list (as text, every kind would be: not one is a character of it).
    expect(failures('accepted_values_things_kind')).toBe(1);
    expect(failures('at_least_things_id')).toBe(1);
    // The failing rows kept (dbt's audit schema on PostgreSQL, dbt_test__audit__<test> on SQLite).
    const test = build.results.find((r) => r.unique_id.startsWith('test.nativeargs.accepted_values'))!.unique_id.split('.')[2]!;
    const kept = engine === 'postgres' ? `"public_dbt_test__audit"."${test}"` : `"dbt_test__audit__${test}"`;
    expect(p.query(`select value_field, n_records from ${kept}`).map((r) => ({ ...r, n_records: Number(r.n_records) }))).toEqual([{ value_field: 'marts', n_records: 1 }]);
  });
});
