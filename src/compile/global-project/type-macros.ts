/**
 * dbt's data type macros (type_string, type_timestamp, type_float,
 * type_numeric, type_bigint, type_int, type_boolean) for the internal `dbt`
 * package. Each returns a type name to write in SQL. On SQLite the name
 * decides the column's affinity, so type_timestamp is TEXT: a cast to
 * `timestamp` (NUMERIC affinity) turns '2021-01-01 01:01:01' into 2021.
 */
export const TYPE_MACROS = String.raw`
{% macro type_string() -%}
  {{ return(adapter.dispatch('type_string', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_string() -%}
  {{ return('text') }}
{%- endmacro %}

{% macro sqlite__type_string() -%}
  {{ return('TEXT') }}
{%- endmacro %}


{% macro type_timestamp() -%}
  {{ return(adapter.dispatch('type_timestamp', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_timestamp() -%}
  {{ return('timestamp') }}
{%- endmacro %}

{#- SQLite keeps timestamps as ISO text; only a TEXT type keeps a cast value whole. -#}
{% macro sqlite__type_timestamp() -%}
  {{ return('TEXT') }}
{%- endmacro %}


{% macro type_float() -%}
  {{ return(adapter.dispatch('type_float', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_float() -%}
  {{ return('float') }}
{%- endmacro %}


{% macro type_numeric() -%}
  {{ return(adapter.dispatch('type_numeric', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_numeric() -%}
  {{ return('numeric(28,6)') }}
{%- endmacro %}


{% macro type_bigint() -%}
  {{ return(adapter.dispatch('type_bigint', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_bigint() -%}
  {{ return('bigint') }}
{%- endmacro %}


{% macro type_int() -%}
  {{ return(adapter.dispatch('type_int', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_int() -%}
  {{ return('integer') }}
{%- endmacro %}


{% macro type_boolean() -%}
  {{ return(adapter.dispatch('type_boolean', 'dbt')()) }}
{%- endmacro %}

{% macro default__type_boolean() -%}
  {{ return('boolean') }}
{%- endmacro %}
`;
