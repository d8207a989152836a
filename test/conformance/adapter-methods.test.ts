import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter basic/test_adapter_methods.py (TestBaseCaching): a model that, while it
 * renders, drops its own schema (adapter.drop_schema), checks with adapter.get_relation that its
 * upstream is gone, creates the schema again (adapter.create_schema) and builds the upstream as a
 * view of `select 2` (create_view_as + run_query); a singular test reads its columns with
 * adapter.get_columns_in_relation. compile, then run: three models, and `model` equals `expected`.
 *
 * drop_schema as each adapter has it: dbt-postgres drops the schema (cascade); dbt-sqlite cannot
 * detach a schema, so it drops every relation in it. mini-dbt's ledger is never dropped (on
 * PostgreSQL the target's schema, which holds it, is emptied relation by relation instead).
 */
const FILES = {
  'tests/get_columns_in_relation.sql': `{% set columns = adapter.get_columns_in_relation(ref('model')) %}
{% set limit_query = 0 %}
{% if (columns | length) == 0 %}
    {% set limit_query = 1 %}
{% endif %}

select 1 as id limit {{ limit_query }}
`,
  'models/upstream.sql': 'select 1 as id\n',
  'models/expected.sql': "-- make sure this runs after 'model'\n-- {{ ref('model') }}\nselect 2 as id\n",
  'models/model.sql': `
{% set upstream = ref('upstream') %}

{% if execute %}
    {# don't ever do any of this #}
    {%- do adapter.drop_schema(upstream) -%}
    {% set existing = adapter.get_relation(upstream.database, upstream.schema, upstream.identifier) %}
    {% if existing is not none %}
        {% do exceptions.raise_compiler_error('expected ' ~ ' to not exist, but it did') %}
    {% endif %}

    {%- do adapter.create_schema(upstream) -%}

    {% set sql = create_view_as(upstream, 'select 2 as id') %}
    {% do run_query(sql) %}
{% endif %}


select * from {{ upstream }}
`,
};

const ROUND_TRIP = `{% macro schema_round_trip() %}
  {% set rel = api.Relation.create(schema=target.schema ~ '_extra', identifier='thing') %}
  {{ log('exists before: ' ~ adapter.check_schema_exists(target.database, rel.schema), info=true) }}
  {% do adapter.create_schema(rel) %}
  {{ log('exists after create: ' ~ adapter.check_schema_exists(target.database, rel.schema), info=true) }}
  {% do run_query(create_table_as(false, rel, 'select 1 as id')) %}
  {{ log('thing: ' ~ (adapter.get_relation(database=target.database, schema=rel.schema, identifier='thing') is not none), info=true) }}
  {% do adapter.drop_schema(rel) %}
  {{ log('thing after drop: ' ~ (adapter.get_relation(database=target.database, schema=rel.schema, identifier='thing') is not none), info=true) }}
  {{ log('exists after drop: ' ~ adapter.check_schema_exists(target.database, rel.schema), info=true) }}
{% endmacro %}
`;

describeEachEngine('adapter methods (dbt-tests-adapter basic/test_adapter_methods)', (engine) => {
  it('TestBaseCaching: drop_schema, get_relation, create_schema, create_view_as in a model; get_columns_in_relation in a test', () => {
    const p = conformanceProject({ ...FILES, 'dbt_project.yml': "name: adapter_methods\nversion: '1.0'\nprofile: default\n" }, 'adapter_methods', { engine });
    const compile = p.dbt(['compile']);
    expect(compile.code, compile.stdout + compile.stderr).toBe(0);
    // A relation of the schema no node builds: drop_schema takes it too.
    p.exec('create table bystander as select 1 as id');
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    expect(p.difference('model', 'expected')).toBe(0);
    expect(p.rows('model')).toEqual([{ id: 2 }]);
    expect(p.relationType('upstream')).toBe('view');
    expect(p.relationType('bystander')).toBeUndefined();
    // The ledger survived the drop: the run is recorded as finished, and the next run builds on it.
    expect(p.query("select status from _mini_dbt_runs where command = 'run'")).toEqual([{ status: 'success' }]);
    const test = p.dbt(['test']);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.results.map((r) => r.status)).toEqual(['pass']);
  });

  it('create_schema makes a schema, drop_schema takes its relations (and on PostgreSQL the schema itself)', () => {
    // SQLite: a schema is a database file of its own, made in the profile's schema_directory.
    const profile = "default:\n  target: dev\n  outputs:\n    dev:\n      type: sqlite\n      database: database\n      schema: main\n      schemas_and_paths:\n        main: warehouse.db\n      schema_directory: schemas\n";
    const p = conformanceProject({ 'macros/round_trip.sql': ROUND_TRIP, ...(engine === 'sqlite' ? { 'profiles.yml': profile } : {}) }, 'adapter_methods', { engine });
    const out = p.dbt(['run-operation', 'schema_round_trip']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const lines = out.stdout.split('\n').map((l) => l.replace(/^\d\d:\d\d:\d\d\s+/, '').trim()).filter((l) => /^(exists|thing)/.test(l));
    expect(lines).toEqual([
      'exists before: False',
      'exists after create: True',
      'thing: True',
      'thing after drop: False',
      // dbt-sqlite cannot detach a schema: it stays, empty.
      `exists after drop: ${engine === 'postgres' ? 'False' : 'True'}`,
    ]);
  });
});
