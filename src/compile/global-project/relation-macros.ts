/**
 * dbt's create_view_as and create_table_as (and their get_create_*_sql names) for the internal `dbt`
 * package: the statement that creates a relation from a SELECT, for macros that build relations
 * themselves (`{% do run_query(create_view_as(relation, sql)) %}`, dbt-tests-adapter's adapter-methods
 * test). PostgreSQL takes dbt's default (the SELECT in parentheses); SQLite's is dbt-sqlite's (no
 * parentheses: SQLite refuses them there). A temporary table is named without its schema, as both
 * adapters name it.
 */
export const RELATION_MACROS = String.raw`
{% macro get_create_view_as_sql(relation, sql) -%}
  {{ adapter.dispatch('get_create_view_as_sql', 'dbt')(relation, sql) }}
{%- endmacro %}

{% macro default__get_create_view_as_sql(relation, sql) -%}
  {{ return(create_view_as(relation, sql)) }}
{%- endmacro %}

{% macro create_view_as(relation, sql) -%}
  {{ adapter.dispatch('create_view_as', 'dbt')(relation, sql) }}
{%- endmacro %}

{% macro default__create_view_as(relation, sql) -%}
  create view {{ relation }} as (
    {{ sql }}
  );
{%- endmacro %}

{% macro sqlite__create_view_as(relation, sql) -%}
  create view {{ relation }} as
    {{ sql }};
{%- endmacro %}

{% macro get_create_table_as_sql(temporary, relation, sql) -%}
  {{ adapter.dispatch('get_create_table_as_sql', 'dbt')(temporary, relation, sql) }}
{%- endmacro %}

{% macro default__get_create_table_as_sql(temporary, relation, sql) -%}
  {{ return(create_table_as(temporary, relation, sql)) }}
{%- endmacro %}

{% macro create_table_as(temporary, relation, compiled_code, language='sql') -%}
  {{ adapter.dispatch('create_table_as', 'dbt')(temporary, relation, compiled_code, language) }}
{%- endmacro %}

{% macro default__create_table_as(temporary, relation, sql, language='sql') -%}
  create {% if temporary -%}temporary{%- endif %} table {{ adapter.quote(relation.identifier) if temporary else relation }} as (
    {{ sql }}
  );
{%- endmacro %}

{% macro sqlite__create_table_as(temporary, relation, sql, language='sql') -%}
  create {% if temporary -%}temporary{%- endif %} table {{ adapter.quote(relation.identifier) if temporary else relation }} as
    {{ sql }};
{%- endmacro %}
`;
