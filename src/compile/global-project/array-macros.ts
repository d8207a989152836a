/**
 * dbt's array macros (array_construct, array_append, array_concat) for the
 * internal `dbt` package. SQLite has no array type: an array is a JSON array
 * in a text value ('[1,2,3]'), built and read with SQLite's JSON functions.
 * The data_type of array_construct is not kept (JSON has no element types).
 */
export const ARRAY_MACROS = String.raw`
{% macro array_construct(inputs=[], data_type='integer') -%}
  {{ return(adapter.dispatch('array_construct', 'dbt')(inputs, data_type)) }}
{%- endmacro %}

{% macro default__array_construct(inputs, data_type) -%}
  {%- if inputs | length > 0 -%}
    array[ {{ inputs | join(' , ') }} ]
  {%- else -%}
    array[]::{{ data_type }}[]
  {%- endif -%}
{%- endmacro %}

{% macro sqlite__array_construct(inputs, data_type) -%}
  json_array({{ inputs | join(', ') }})
{%- endmacro %}


{% macro array_append(array, new_element) -%}
  {{ return(adapter.dispatch('array_append', 'dbt')(array, new_element)) }}
{%- endmacro %}

{% macro default__array_append(array, new_element) -%}
  array_append({{ array }}, {{ new_element }})
{%- endmacro %}

{% macro sqlite__array_append(array, new_element) -%}
  json_insert({{ array }}, '$[#]', {{ new_element }})
{%- endmacro %}


{% macro array_concat(array_1, array_2) -%}
  {{ return(adapter.dispatch('array_concat', 'dbt')(array_1, array_2)) }}
{%- endmacro %}

{% macro default__array_concat(array_1, array_2) -%}
  array_cat({{ array_1 }}, {{ array_2 }})
{%- endmacro %}

{#- The elements of both, in order; nested arrays and objects stay JSON. -#}
{% macro sqlite__array_concat(array_1, array_2) -%}
  (select json_group_array(iif(__dbt_type in ('array', 'object'), json(__dbt_value), __dbt_value) order by __dbt_side, __dbt_key) from (
    select 1 as __dbt_side, key as __dbt_key, value as __dbt_value, type as __dbt_type from json_each({{ array_1 }})
    union all
    select 2, key, value, type from json_each({{ array_2 }})))
{%- endmacro %}
`;
