import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * The adapter API on each engine, as its dbt adapter answers: get_columns_in_relation gives the
 * warehouse's own column types (dbt-postgres reads character varying(20), numeric(12,2), text; dbt-sqlite
 * the declared affinities), check_schema_exists finds the target's schema, list_relations_without_caching
 * lists its tables and views (mini-dbt's ledger left out).
 */
const MACRO = `{% macro show_columns() %}
{%- set relation = api.Relation.create(schema=target.schema, identifier='typed') -%}
{%- for c in adapter.get_columns_in_relation(relation) -%}
{{ log('column ' ~ c.name ~ ': ' ~ c.data_type ~ ' string=' ~ c.is_string() ~ ' number=' ~ c.is_number(), info=true) }}
{%- endfor -%}
{{ log('target schema exists: ' ~ adapter.check_schema_exists(target.database, target.schema), info=true) }}
{{ log('other schema exists: ' ~ adapter.check_schema_exists(target.database, 'no_such_schema'), info=true) }}
{%- set listed = adapter.list_relations_without_caching(api.Relation.create(schema=target.schema)) -%}
{{ log('relations: ' ~ (listed | map(attribute='identifier') | join(',')) ~ ' types: ' ~ (listed | map(attribute='type') | join(',')), info=true) }}
{% endmacro %}

{% macro move_relations() %}
{%- set view = api.Relation.create(schema=target.schema, identifier='typed_view', type='view') -%}
{%- set renamed = api.Relation.create(schema=target.schema, identifier='renamed_view', type='view') -%}
{%- do adapter.rename_relation(view, renamed) -%}
{%- do adapter.drop_relation(api.Relation.create(schema=target.schema, identifier='other', type='table')) -%}
{% endmacro %}
`;

const VIEW = "{{ config(materialized='view') }}\nselect i from {{ ref('typed') }}\n";

const MODEL = "{{ config(materialized='table') }}\nselect cast(1 as integer) as i, cast('x' as varchar(20)) as v, cast(1.5 as numeric(12,2)) as n, cast('x' as text) as t\n";

const EXPECTED: Record<string, string[]> = {
  postgres: [
    'column i: integer string=False number=True',
    'column v: character varying(20) string=True number=False',
    'column n: numeric(12,2) string=False number=True',
    'column t: text string=True number=False',
  ],
  // SQLite declares what a CREATE TABLE AS gives: the affinities of the casts (the SQLite engine
  // reads a cast to a decimal with a scale, numeric(12,2), as one to real: sqlite-date-casts.ts).
  sqlite: [
    'column i: INT string=False number=False',
    'column v: character varying(256) string=True number=False',
    'column n: REAL string=False number=True',
    'column t: character varying(256) string=True number=False',
  ],
};

describeEachEngine('adapter.get_columns_in_relation, check_schema_exists, list_relations_without_caching', (engine) => {
  it("the relation's columns with the warehouse's types; the target's schema exists, another does not", () => {
    const p = conformanceProject({ 'models/typed.sql': MODEL, 'models/typed_view.sql': VIEW, 'macros/show_columns.sql': MACRO }, 'conformance', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const out = p.dbt(['run-operation', 'show_columns']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const lines = out.stdout.split('\n').map((l) => l.replace(/^\d\d:\d\d:\d\d\s+/, '').trim());
    expect(lines.filter((l) => l.startsWith('column '))).toEqual(EXPECTED[engine]);
    expect(lines).toContain('target schema exists: True');
    expect(lines).toContain('other schema exists: False');
    // The project's relations, the ledger left out.
    expect(lines).toContain('relations: typed,typed_view types: table,view');
  });

  it('rename_relation renames a view (it still reads its table), drop_relation drops a table', () => {
    const p = conformanceProject({ 'models/typed.sql': MODEL, 'models/typed_view.sql': VIEW, 'models/other.sql': "{{ config(materialized='table') }}\nselect 1 as x\n", 'macros/show_columns.sql': MACRO }, 'conformance', { engine });
    expect(p.dbt(['run']).code).toBe(0);
    const moved = p.dbt(['run-operation', 'move_relations']);
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    expect(p.relationType('typed_view')).toBeUndefined();
    expect(p.relationType('renamed_view')).toBe('view');
    expect(p.rows('renamed_view')).toEqual([{ i: 1 }]);
    expect(p.relationType('other')).toBeUndefined();
  });
});
