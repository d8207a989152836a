import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Fields of the graph variable's (and manifest.json's) sources and tests that packages read, as dbt
 * has them: a source's `source_description` and `loader` (dbt_project_evaluator's
 * fct_undocumented_sources), and a generic test's depends_on.macros naming the test macro where it is
 * defined: `macro.dbt.test_unique` for a built-in test, `macro.<package>.test_<name>` for a package's
 * or the project's own (the evaluator tells primary-key tests by `dbt.test_unique` / `dbt.test_not_null`).
 */
describeEachEngine('sources and tests in the graph variable', (engine) => {
  it("carry the source's description and loader, and the macro each test calls", () => {
    const p = conformanceProject({
      'macros/is_even.sql': '{% test is_even(model, column_name) %}select * from {{ model }} where {{ column_name }} % 2 = 1{% endtest %}\n',
      'models/orders.sql': 'select 2 as id\n',
      'models/schema.yml': `version: 2
sources:
  - name: described
    description: "Loaded {{ 'nightly' }} by the shop"
    loader: fivetran
    tables:
      - name: t1
  - name: bare
    tables:
      - name: t2
models:
  - name: orders
    columns:
      - name: id
        data_tests: [unique, not_null, is_even]
`,
      'models/fields.sql': `{{ config(materialized='table') }}
{% set rows = [] %}
{% if execute %}
{% for s in graph.sources.values() | sort(attribute='unique_id') %}{% do rows.append("select '" ~ s.unique_id ~ "' as id, '" ~ s.source_description ~ "' as value, '" ~ s.loader ~ "' as extra") %}{% endfor %}
{% for t in graph.nodes.values() | selectattr('resource_type', 'equalto', 'test') %}{% do rows.append("select '" ~ t.test_metadata.name ~ "', '" ~ (t.depends_on.macros | join(',')) ~ "', ''") %}{% endfor %}
{% endif %}
{{ rows | join(' union all ') }}
`,
    }, 'fields', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(p.rows('fields', 'id')).toEqual([
      { id: 'is_even', value: 'macro.fields.test_is_even', extra: '' },
      { id: 'not_null', value: 'macro.dbt.test_not_null', extra: '' },
      { id: 'source.fields.bare.t2', value: '', extra: '' },
      { id: 'source.fields.described.t1', value: 'Loaded nightly by the shop', extra: 'fivetran' },
      { id: 'unique', value: 'macro.dbt.test_unique', extra: '' },
    ]);
  });
});
