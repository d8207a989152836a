{#- The night being run: var('as_of'), or everything landed so far. -#}
{% macro as_of() -%}
  {%- set night = var('as_of', none) -%}
  {%- if night is none -%}
    (select max(load_date) from {{ ref('raw_orders') }})
  {%- else -%}
    '{{ iso_date(night, 'as_of') }}'
  {%- endif -%}
{%- endmacro %}

{#- The order days an incremental run rewrites, as "<first> and <last>". -#}
{% macro rewrite_window() -%}
  {%- set start = var('start', none) -%}
  {%- set end = var('end', none) -%}
  {%- if start is not none and end is not none -%}
    {%- if (start | string) > (end | string) -%}
      {{ exceptions.raise_compiler_error("start (" ~ start ~ ") is after end (" ~ end ~ ")") }}
    {%- endif -%}
    '{{ iso_date(start, 'start') }}' and '{{ iso_date(end, 'end') }}'
  {%- elif start is not none or end is not none -%}
    {{ exceptions.raise_compiler_error("a backfill needs both start and end vars") }}
  {%- else -%}
    date({{ as_of() }}, '-{{ var('lookback_days') | int }} days') and {{ as_of() }}
  {%- endif -%}
{%- endmacro %}

{#- A var that must be an ISO date (YYYY-MM-DD), returned as it was given. -#}
{% macro iso_date(value, name) -%}
  {%- if not r/^\d{4}-\d{2}-\d{2}$/.test(value | string) -%}
    {{ exceptions.raise_compiler_error("var '" ~ name ~ "' must be a date like 2026-09-01, got '" ~ value ~ "'") }}
  {%- endif -%}
  {{ value }}
{%- endmacro %}
