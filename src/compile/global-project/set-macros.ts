/**
 * dbt's set operators (except, intersect) for the internal `dbt` package:
 * SQLite has both keywords, so the defaults stand.
 */
export const SET_MACROS = String.raw`
{% macro except() -%}
  {{ return(adapter.dispatch('except', 'dbt')()) }}
{%- endmacro %}

{% macro default__except() -%}
  except
{%- endmacro %}


{% macro intersect() -%}
  {{ return(adapter.dispatch('intersect', 'dbt')()) }}
{%- endmacro %}

{% macro default__intersect() -%}
  intersect
{%- endmacro %}
`;
