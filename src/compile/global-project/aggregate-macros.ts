/**
 * dbt's aggregate macros (any_value, bool_or, listagg) for the internal `dbt`
 * package. SQLite: min() for any_value, max() over 1/0 for bool_or (NULLs
 * skipped, as bool_or skips them), group_concat() for listagg. PostgreSQL
 * (as dbt-postgres): min() for any_value, string_agg() for listagg.
 */
export const AGGREGATE_MACROS = String.raw`
{% macro any_value(expression) -%}
  {{ return(adapter.dispatch('any_value', 'dbt')(expression)) }}
{%- endmacro %}

{% macro default__any_value(expression) -%}
  any_value({{ expression }})
{%- endmacro %}

{#- Any value of the group will do; min() picks one the same way on every run. -#}
{% macro sqlite__any_value(expression) -%}
  min({{ expression }})
{%- endmacro %}


{#- PostgreSQL has no any_value before 16: min() picks one, as dbt-postgres does. -#}
{% macro postgres__any_value(expression) -%}
  min({{ expression }})
{%- endmacro %}


{% macro bool_or(expression) -%}
  {{ return(adapter.dispatch('bool_or', 'dbt')(expression)) }}
{%- endmacro %}

{% macro default__bool_or(expression) -%}
  bool_or({{ expression }})
{%- endmacro %}

{#- SQLite's booleans are 1 and 0: the largest is 1 when any row is true. -#}
{% macro sqlite__bool_or(expression) -%}
  max({{ expression }})
{%- endmacro %}


{% macro listagg(measure, delimiter_text="','", order_by_clause=none, limit_num=none) -%}
  {{ return(adapter.dispatch('listagg', 'dbt')(measure, delimiter_text, order_by_clause, limit_num)) }}
{%- endmacro %}

{% macro default__listagg(measure, delimiter_text, order_by_clause, limit_num) -%}
  {%- if limit_num -%}
    array_to_string(array_slice(array_agg({{ measure }}){% if order_by_clause %} within group ({{ order_by_clause }}){% endif %}, 0, {{ limit_num }}), {{ delimiter_text }})
  {%- else -%}
    listagg({{ measure }}, {{ delimiter_text }}){% if order_by_clause %} within group ({{ order_by_clause }}){% endif %}
  {%- endif -%}
{%- endmacro %}

{#- string_agg(x, delimiter ORDER BY ...); a limit keeps the first limit_num of array_agg's ordered array. -#}
{% macro postgres__listagg(measure, delimiter_text, order_by_clause, limit_num) -%}
  {%- if limit_num -%}
    array_to_string((array_agg({{ measure }}{% if order_by_clause %} {{ order_by_clause }}{% endif %}))[1:{{ limit_num }}], {{ delimiter_text }})
  {%- else -%}
    string_agg({{ measure }}, {{ delimiter_text }}{% if order_by_clause %} {{ order_by_clause }}{% endif %})
  {%- endif -%}
{%- endmacro %}

{#-
  group_concat(x, delimiter ORDER BY ...) (SQLite 3.44+). SQLite refuses DISTINCT with a delimiter and
  has no slice, so 'DISTINCT x' or a limit goes through a JSON array of the group's non-NULL values
  (distinct, in order), of which the first limit_num are joined.
-#}
{% macro sqlite__listagg(measure, delimiter_text, order_by_clause, limit_num) -%}
  {%- set trimmed = measure | trim -%}
  {%- set distinct = (trimmed[:9] | lower) in ['distinct ', 'distinct\n', 'distinct\t'] -%}
  {%- set order_by = (' ' ~ order_by_clause) if order_by_clause else '' -%}
  {%- if not distinct and not limit_num -%}
    group_concat({{ measure }}, {{ delimiter_text }}{{ order_by }})
  {%- else -%}
    {%- set expression = trimmed[9:] if distinct else measure -%}
    (select group_concat(value, {{ delimiter_text }} order by key)
      from json_each(json_group_array({{ 'distinct ' if distinct }}{{ expression }}{{ order_by }}) filter (where ({{ expression }}) is not null))
      {%- if limit_num %} where key < {{ limit_num }}{% endif %})
  {%- endif -%}
{%- endmacro %}
`;
