/**
 * SQLite versions of dbt_date macros whose default SQL calls functions
 * SQLite lacks (date_part, to_char, to_timestamp); convert_timezone needs none: the SQLite engine registers Snowflake's convert_timezone() (src/engine/sqlite/sqlite-convert-timezone.ts).
 * mini-dbt's own text; the results follow dbt_date's postgres__ versions.
 */
export const DBT_DATE_SHIMS = String.raw`
{#- Postgres' date_part through strftime (SQLite 3.46+ has %u, %V and %G). -#}
{% macro sqlite__date_part(datepart, date) -%}
  {%- set formats = {
    'year': '%Y', 'month': '%m', 'day': '%d', 'hour': '%H', 'minute': '%M', 'second': '%S',
    'dayofweek': '%w', 'dow': '%w', 'isodow': '%u', 'dayofyear': '%j', 'doy': '%j',
    'week': '%V', 'isoweek': '%V', 'isoyear': '%G'
  } -%}
  {%- if datepart == 'quarter' -%}
    ((cast(strftime('%m', {{ date }}) as integer) + 2) / 3)
  {%- elif datepart in ['epoch', 'epoch_seconds'] -%}
    unixepoch({{ date }})
  {%- elif datepart in formats -%}
    cast(strftime('{{ formats[datepart] }}', {{ date }}) as integer)
  {%- elif not execute -%}
    null
  {%- else -%}
    {{ exceptions.raise_compiler_error("dbt_date.date_part: '" ~ datepart ~ "' is not a date part mini-dbt can read on SQLite (one of " ~ (formats.keys() | list + ['quarter', 'epoch']) | join(', ') ~ ")") }}
  {%- endif -%}
{%- endmacro %}

{% macro sqlite__day_name(date, short) -%}
  {%- set names = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] -%}
  case cast(strftime('%w', {{ date }}) as integer)
  {%- for name in names %} when {{ loop.index0 }} then '{{ name[:3] if short else name }}'{% endfor %} end
{%- endmacro %}

{% macro sqlite__month_name(date, short) -%}
  {%- set names = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] -%}
  case cast(strftime('%m', {{ date }}) as integer)
  {%- for name in names %} when {{ loop.index }} then '{{ name[:3] if short else name }}'{% endfor %} end
{%- endmacro %}

{#- mini-dbt's date_trunc('week') starts weeks on Monday, as Postgres does: the ISO week. -#}
{% macro sqlite__iso_week_start(date) -%}
  {{ dbt_date._iso_week_start(date, 'week') }}
{%- endmacro %}

{% macro sqlite__iso_week_end(date) -%}
  {{ dbt_date._iso_week_end(date, 'week') }}
{%- endmacro %}

{% macro sqlite__iso_week_of_year(date) -%}
  {{ dbt_date._iso_week_of_year(date, 'isoweek') }}
{%- endmacro %}

{#- Postgres' to_char(date, 'WW'): week 1 starts on January 1. -#}
{% macro sqlite__week_of_year(date) -%}
  ((cast(strftime('%j', {{ date }}) as integer) - 1) / 7 + 1)
{%- endmacro %}

{% macro sqlite__from_unixtimestamp(epochs, format="seconds") -%}
  {%- set divisors = {'seconds': 1, 'milliseconds': 1000, 'microseconds': 1000000} -%}
  {%- if format not in divisors -%}
    {{ exceptions.raise_compiler_error("value " ~ format ~ " for ${'`'}format${'`'} for from_unixtimestamp is not supported.") }}
  {%- endif -%}
  {%- if format == 'seconds' -%}
    datetime({{ epochs }}, 'unixepoch')
  {%- else -%}
    datetime({{ epochs }} / {{ divisors[format] }}.0, 'unixepoch', 'subsec')
  {%- endif -%}
{%- endmacro %}
`;
