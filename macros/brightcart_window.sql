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
    {{ days_before(as_of(), lookback_days()) }} and {{ as_of() }}
  {%- endif -%}
{%- endmacro %}

{#- A var that must be a real calendar date written YYYY-MM-DD, from 1000-01-01
    to 9998-12-31 (mini-dbt computes a few days past the dates it is given),
    returned as it was given. date() in SQLite turns an impossible date into
    NULL, and a window of NULLs silently selects nothing: refuse it here. -#}
{% macro iso_date(value, name) -%}
  {%- set text = value | string -%}
  {%- if not r/^\d{4}-\d{2}-\d{2}$/.test(text) -%}
    {{ exceptions.raise_compiler_error("var '" ~ name ~ "' must be a date like 2026-09-01, got '" ~ value ~ "'") }}
  {%- endif -%}
  {%- set parts = text.split('-') -%}
  {%- set year = parts[0] | int -%}
  {%- set month = parts[1] | int -%}
  {%- set day = parts[2] | int -%}
  {%- set leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) -%}
  {%- set month_days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] -%}
  {%- if month < 1 or month > 12 or day < 1 or day > month_days[month - 1] -%}
    {{ exceptions.raise_compiler_error("var '" ~ name ~ "' is not a real calendar date: '" ~ text ~ "'") }}
  {%- endif -%}
  {%- if year < 1000 or year > 9998 -%}
    {{ exceptions.raise_compiler_error("var '" ~ name ~ "' is " ~ text ~ ", outside the dates mini-dbt works with (1000-01-01 to 9998-12-31)") }}
  {%- endif -%}
  {{ text }}
{%- endmacro %}

{#- The lookback_days var: a whole number of days from 0 to 36500. A negative
    one would make the window end before it starts (nothing is rewritten), and
    `| int` alone would turn a typo into 0. -#}
{% macro lookback_days() -%}
  {%- set value = var('lookback_days') -%}
  {%- if not r/^\d{1,6}$/.test(value | string) or (value | int) > 36500 -%}
    {{ exceptions.raise_compiler_error("var 'lookback_days' must be a whole number of days from 0 to 36500, got '" ~ value ~ "'") }}
  {%- endif -%}
  {{ value | int }}
{%- endmacro %}
