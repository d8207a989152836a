/**
 * dbt's date macros (date_trunc, dateadd, datediff, last_day, date) for the
 * internal `dbt` package. SQLite has no date type: dates are ISO text, so the
 * sqlite__ versions work on 'YYYY-MM-DD' and 'YYYY-MM-DD HH:MM:SS' strings with
 * date(), datetime(), strftime() and unixepoch(). A value keeps its shape: a
 * date in gives a date out (for whole-day parts), a timestamp gives a timestamp.
 * PostgreSQL has date types and date_trunc: its postgres__ versions are
 * dbt-postgres's (interval arithmetic, date_part differences), with a quarter
 * as three months where PostgreSQL's interval has no quarter.
 */
export const DATE_MACROS = String.raw`
{#-
  The datepart as a plain lowercase word: 'day', day, days and "'day'" all mean day. Another word fails
  the model that asks for it when it runs (at parse time it stands in as day, so the project loads).
-#}
{% macro sqlite_datepart_word(datepart, macro_name) -%}
  {%- set part = (datepart | string | lower | trim | replace("'", '') | replace('"', '')) -%}
  {%- set known = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond', 'microsecond'] -%}
  {%- if part in known -%}
    {{ return(part) }}
  {%- elif part in ['years', 'quarters', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] -%}
    {{ return(part[:-1]) }}
  {%- elif execute -%}
    {{ exceptions.raise_compiler_error(macro_name ~ ": datepart '" ~ datepart ~ "' is not one SQLite can do (one of " ~ known | join(', ') ~ ")") }}
  {%- else -%}
    {{ return('day') }}
  {%- endif -%}
{%- endmacro %}

{#- Apply SQLite date modifiers to a value, keeping its shape: a 10-character date stays a date for whole-day parts (the value is written twice, not three times, so that nested calls stay small). -#}
{% macro sqlite_shift_date(value, modifiers, part) -%}
  {%- if part in ['year', 'quarter', 'month', 'week', 'day'] -%}
    strftime(iif(length({{ value }}) = 10, '%Y-%m-%d', '%Y-%m-%d %H:%M:%S'), {{ value }}, {{ modifiers }})
  {%- elif part in ['millisecond', 'microsecond'] -%}
    strftime('%Y-%m-%d %H:%M:%f', {{ value }}, {{ modifiers }})
  {%- else -%}
    datetime({{ value }}, {{ modifiers }})
  {%- endif -%}
{%- endmacro %}


{% macro date_trunc(datepart, date) -%}
  {{ return(adapter.dispatch('date_trunc', 'dbt')(datepart, date)) }}
{%- endmacro %}

{% macro default__date_trunc(datepart, date) -%}
  date_trunc('{{ datepart }}', {{ date }})
{%- endmacro %}

{#- Weeks start on Monday (back six days, then on to a Monday); a quarter steps back from its month. -#}
{% macro sqlite__date_trunc(datepart, date) -%}
  {%- set part = dbt.sqlite_datepart_word(datepart, 'date_trunc') -%}
  {%- if part == 'year' -%}
    {{ dbt.sqlite_shift_date(date, "'start of year'", part) }}
  {%- elif part == 'quarter' -%}
    {{ dbt.sqlite_shift_date(date, "'start of month', (-((cast(strftime('%m', " ~ date ~ ") as integer) - 1) % 3)) || ' months'", part) }}
  {%- elif part == 'month' -%}
    {{ dbt.sqlite_shift_date(date, "'start of month'", part) }}
  {%- elif part == 'week' -%}
    {{ dbt.sqlite_shift_date(date, "'start of day', '-6 days', 'weekday 1'", part) }}
  {%- elif part == 'day' -%}
    {{ dbt.sqlite_shift_date(date, "'start of day'", part) }}
  {%- elif part == 'hour' -%}
    strftime('%Y-%m-%d %H:00:00', {{ date }})
  {%- elif part == 'minute' -%}
    strftime('%Y-%m-%d %H:%M:00', {{ date }})
  {%- elif part == 'second' -%}
    strftime('%Y-%m-%d %H:%M:%S', {{ date }})
  {%- else -%}
    {#- SQLite's clock keeps milliseconds: to the millisecond, and to the microsecond too. -#}
    strftime('%Y-%m-%d %H:%M:%f', {{ date }})
  {%- endif -%}
{%- endmacro %}


{% macro dateadd(datepart, interval, from_date_or_timestamp) -%}
  {{ return(adapter.dispatch('dateadd', 'dbt')(datepart, interval, from_date_or_timestamp)) }}
{%- endmacro %}

{% macro default__dateadd(datepart, interval, from_date_or_timestamp) -%}
  dateadd({{ datepart }}, {{ interval }}, {{ from_date_or_timestamp }})
{%- endmacro %}

{#- Months, quarters and years end on the month's last day when the day does not exist ('floor'), as in PostgreSQL. -#}
{% macro sqlite__dateadd(datepart, interval, from_date_or_timestamp) -%}
  {%- set part = dbt.sqlite_datepart_word(datepart, 'dateadd') -%}
  {%- set n = '(' ~ interval ~ ')' -%}
  {%- set modifiers = {
      'year': n ~ " || ' years', 'floor'",
      'quarter': '(' ~ n ~ " * 3) || ' months', 'floor'",
      'month': n ~ " || ' months', 'floor'",
      'week': '(' ~ n ~ " * 7) || ' days'",
      'day': n ~ " || ' days'",
      'hour': n ~ " || ' hours'",
      'minute': n ~ " || ' minutes'",
      'second': n ~ " || ' seconds'",
      'millisecond': "printf('%.3f seconds', " ~ n ~ " / 1000.0)",
      'microsecond': "printf('%.6f seconds', " ~ n ~ " / 1000000.0)",
  } -%}
  {{ dbt.sqlite_shift_date(from_date_or_timestamp, modifiers[part], part) }}
{%- endmacro %}


{#- The value plus n dateparts (a quarter is three months: PostgreSQL's intervals have no quarters). -#}
{% macro postgres__dateadd(datepart, interval, from_date_or_timestamp) -%}
  {%- set part = datepart | string | lower | trim | replace("'", '') | replace('"', '') -%}
  {%- if part in ['quarter', 'quarters'] -%}
    {{ from_date_or_timestamp }} + ((interval '3 month') * ({{ interval }}))
  {%- else -%}
    {{ from_date_or_timestamp }} + ((interval '1 {{ part }}') * ({{ interval }}))
  {%- endif -%}
{%- endmacro %}


{% macro datediff(first_date, second_date, datepart) -%}
  {{ return(adapter.dispatch('datediff', 'dbt')(first_date, second_date, datepart)) }}
{%- endmacro %}

{% macro default__datediff(first_date, second_date, datepart) -%}
  datediff({{ datepart }}, {{ first_date }}, {{ second_date }})
{%- endmacro %}

{#- The number of datepart boundaries crossed from first_date to second_date (weeks start on Monday). -#}
{% macro sqlite__datediff(first_date, second_date, datepart) -%}
  {%- set part = dbt.sqlite_datepart_word(datepart, 'datediff') -%}
  {%- set a = '(' ~ first_date ~ ')' -%}
  {%- set b = '(' ~ second_date ~ ')' -%}
  {%- if part == 'year' -%}
    (cast(strftime('%Y', {{ b }}) as integer) - cast(strftime('%Y', {{ a }}) as integer))
  {%- elif part == 'quarter' -%}
    ((cast(strftime('%Y', {{ b }}) as integer) * 4 + (cast(strftime('%m', {{ b }}) as integer) - 1) / 3)
      - (cast(strftime('%Y', {{ a }}) as integer) * 4 + (cast(strftime('%m', {{ a }}) as integer) - 1) / 3))
  {%- elif part == 'month' -%}
    ((cast(strftime('%Y', {{ b }}) as integer) * 12 + cast(strftime('%m', {{ b }}) as integer))
      - (cast(strftime('%Y', {{ a }}) as integer) * 12 + cast(strftime('%m', {{ a }}) as integer)))
  {%- elif part == 'week' -%}
    cast(floor((unixepoch(date({{ b }})) / 86400 + 3) / 7.0) - floor((unixepoch(date({{ a }})) / 86400 + 3) / 7.0) as integer)
  {%- elif part == 'day' -%}
    ((unixepoch(date({{ b }})) - unixepoch(date({{ a }}))) / 86400)
  {%- elif part in ['hour', 'minute'] -%}
    {%- set size = 3600 if part == 'hour' else 60 -%}
    cast(floor(unixepoch({{ b }}) / {{ size }}.0) - floor(unixepoch({{ a }}) / {{ size }}.0) as integer)
  {%- elif part == 'second' -%}
    (unixepoch({{ b }}) - unixepoch({{ a }}))
  {%- elif part == 'millisecond' -%}
    cast(round(unixepoch({{ b }}, 'subsec') * 1000) - round(unixepoch({{ a }}, 'subsec') * 1000) as integer)
  {%- else -%}
    ((unixepoch({{ b }}) - unixepoch({{ a }})) * 1000000 + {{ dbt.sqlite_fraction_microseconds(b) }} - {{ dbt.sqlite_fraction_microseconds(a) }})
  {%- endif -%}
{%- endmacro %}

{#- The datepart boundaries crossed from first_date to second_date, from date_part differences (as dbt-postgres; weeks start on Sunday there). -#}
{% macro postgres__datediff(first_date, second_date, datepart) -%}
  {%- set part = datepart | string | lower | trim | replace("'", '') | replace('"', '') -%}
  {%- set a = '(' ~ first_date ~ ')' -%}
  {%- set b = '(' ~ second_date ~ ')' -%}
  {%- if part == 'year' -%}
    (date_part('year', {{ b }}::date) - date_part('year', {{ a }}::date))
  {%- elif part == 'quarter' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'year') }} * 4 + date_part('quarter', {{ b }}::date) - date_part('quarter', {{ a }}::date))
  {%- elif part == 'month' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'year') }} * 12 + date_part('month', {{ b }}::date) - date_part('month', {{ a }}::date))
  {%- elif part == 'day' -%}
    ({{ b }}::date - {{ a }}::date)
  {%- elif part == 'week' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'day') }} / 7 + case
      when date_part('dow', {{ a }}::timestamp) <= date_part('dow', {{ b }}::timestamp) then case when {{ a }} <= {{ b }} then 0 else -1 end
      else case when {{ a }} <= {{ b }} then 1 else 0 end
    end)
  {%- elif part == 'hour' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'day') }} * 24 + date_part('hour', {{ b }}::timestamp) - date_part('hour', {{ a }}::timestamp))
  {%- elif part == 'minute' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'hour') }} * 60 + date_part('minute', {{ b }}::timestamp) - date_part('minute', {{ a }}::timestamp))
  {%- elif part == 'second' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'minute') }} * 60 + floor(date_part('second', {{ b }}::timestamp)) - floor(date_part('second', {{ a }}::timestamp)))
  {%- elif part == 'millisecond' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'minute') }} * 60000 + floor(date_part('millisecond', {{ b }}::timestamp)) - floor(date_part('millisecond', {{ a }}::timestamp)))
  {%- elif part == 'microsecond' -%}
    ({{ dbt.postgres__datediff(first_date, second_date, 'minute') }} * 60000000 + floor(date_part('microsecond', {{ b }}::timestamp)) - floor(date_part('microsecond', {{ a }}::timestamp)))
  {%- elif execute -%}
    {{ exceptions.raise_compiler_error("datediff: datepart '" ~ datepart ~ "' is not one PostgreSQL can do") }}
  {%- else -%}
    ({{ b }}::date - {{ a }}::date)
  {%- endif -%}
{%- endmacro %}

{#- The fraction of a second of a timestamp string, in microseconds, read from its digits (SQLite's own clock keeps milliseconds). -#}
{% macro sqlite_fraction_microseconds(value) -%}
  (case when instr({{ value }}, '.') > 0 then cast(substr(substr({{ value }}, instr({{ value }}, '.') + 1) || '000000', 1, 6) as integer) else 0 end)
{%- endmacro %}


{% macro last_day(date, datepart) -%}
  {{ return(adapter.dispatch('last_day', 'dbt')(date, datepart)) }}
{%- endmacro %}

{% macro default_last_day(date, datepart) -%}
  cast({{ dbt.dateadd('day', '-1', dbt.dateadd(datepart, '1', dbt.date_trunc(datepart, date))) }} as date)
{%- endmacro %}

{% macro default__last_day(date, datepart) -%}
  {{ dbt.default_last_day(date, datepart) }}
{%- endmacro %}

{#- A quarter is three months on PostgreSQL (its dateadd has no quarter); the rest as the default. -#}
{% macro postgres__last_day(date, datepart) -%}
  {%- if (datepart | string | lower | trim | replace("'", '')) == 'quarter' -%}
    cast({{ dbt.dateadd('day', '-1', dbt.dateadd('month', '3', dbt.date_trunc(datepart, date))) }} as date)
  {%- else -%}
    {{ dbt.default_last_day(date, datepart) }}
  {%- endif -%}
{%- endmacro %}

{#- Always a date ('YYYY-MM-DD'): the day before the start of the next period (a part under a day: that day). -#}
{% macro sqlite__last_day(date, datepart) -%}
  {%- set part = dbt.sqlite_datepart_word(datepart, 'last_day') -%}
  {%- set next_period = {'year': "'+1 years'", 'quarter': "'+3 months'", 'month': "'+1 months'", 'week': "'+7 days'", 'day': "'+1 days'"} -%}
  {%- if part in next_period -%}
    date({{ dbt.date_trunc(part, date) }}, {{ next_period[part] }}, '-1 day')
  {%- else -%}
    date({{ date }})
  {%- endif -%}
{%- endmacro %}


{% macro date(year, month, day) -%}
  {{ return(adapter.dispatch('date', 'dbt')(year, month, day)) }}
{%- endmacro %}

{% macro default__date(year, month, day) -%}
  {%- set iso = modules.datetime.date(year, month, day).strftime('%Y-%m-%d') -%}
  to_date('{{ iso }}', 'YYYY-MM-DD')
{%- endmacro %}

{#- A date literal: SQLite's dates are ISO text. -#}
{% macro sqlite__date(year, month, day) -%}
  '{{ modules.datetime.date(year, month, day).strftime('%Y-%m-%d') }}'
{%- endmacro %}
`;
