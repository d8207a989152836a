/**
 * dbt's series and spine macros (get_powers_of_two, generate_series,
 * get_intervals_between, date_spine) for the internal `dbt` package. They are
 * built on datediff and dateadd, so the defaults work on SQLite once those do;
 * generate_series has a SQLite version that counts with a recursive CTE.
 */
export const SPINE_MACROS = String.raw`
{% macro get_powers_of_two(upper_bound) -%}
  {{ return(adapter.dispatch('get_powers_of_two', 'dbt')(upper_bound)) }}
{%- endmacro %}

{#- The smallest n (1 to 99) with 2**n >= upper_bound. -#}
{% macro default__get_powers_of_two(upper_bound) -%}
  {%- if upper_bound <= 0 -%}
    {{ exceptions.raise_compiler_error('upper bound must be positive') }}
  {%- endif -%}
  {%- for n in range(1, 100) -%}
    {%- if upper_bound <= 2 ** n -%}{{ return(n) }}{%- endif -%}
  {%- endfor -%}
{%- endmacro %}


{% macro generate_series(upper_bound) -%}
  {{ return(adapter.dispatch('generate_series', 'dbt')(upper_bound)) }}
{%- endmacro %}

{#- The numbers 1 to upper_bound, from a cross join of n two-row tables (bit i weighs 2**i). -#}
{% macro default__generate_series(upper_bound) -%}
  {%- set n = dbt.get_powers_of_two(upper_bound) -%}
  with p as (
    select 0 as generated_number union all select 1
  ), unioned as (
    select
    {% for i in range(n) -%}
      p{{ i }}.generated_number * power(2, {{ i }}){% if not loop.last %} + {% endif %}
    {% endfor -%}
    + 1 as generated_number
    from
    {% for i in range(n) -%}
      p as p{{ i }}{% if not loop.last %} cross join {% endif %}
    {% endfor %}
  )
  select * from unioned
  where generated_number <= {{ upper_bound }}
  order by generated_number
{%- endmacro %}

{#- One query counting 1 to upper_bound (integers, where power() would give reals). -#}
{% macro sqlite__generate_series(upper_bound) -%}
  with recursive __dbt_series(generated_number) as (
    select 1 where 1 <= {{ upper_bound }}
    union all
    select generated_number + 1 from __dbt_series where generated_number < {{ upper_bound }}
  )
  select generated_number from __dbt_series
{%- endmacro %}


{% macro get_intervals_between(start_date, end_date, datepart) -%}
  {{ return(adapter.dispatch('get_intervals_between', 'dbt')(start_date, end_date, datepart)) }}
{%- endmacro %}

{#- Asks the warehouse for datediff(start, end); 1 when there is no answer (at parse time). -#}
{% macro default__get_intervals_between(start_date, end_date, datepart) -%}
  {%- call statement('get_intervals_between', fetch_result=True) -%}
    select {{ dbt.datediff(start_date, end_date, datepart) }}
  {%- endcall -%}
  {%- set result = load_result('get_intervals_between') -%}
  {%- if result and result['data'] -%}
    {{ return((result['data'] | map(attribute=0) | list)[0]) }}
  {%- else -%}
    {{ return(1) }}
  {%- endif -%}
{%- endmacro %}


{% macro date_spine(datepart, start_date, end_date) -%}
  {{ return(adapter.dispatch('date_spine', 'dbt')(datepart, start_date, end_date)) }}
{%- endmacro %}

{#- One row per datepart from start_date up to (not including) end_date, in a column date_<datepart>. -#}
{% macro default__date_spine(datepart, start_date, end_date) -%}
  with rawdata as (
    {{ dbt.generate_series(dbt.get_intervals_between(start_date, end_date, datepart)) }}
  ),
  all_periods as (
    select ({{ dbt.dateadd(datepart, 'row_number() over (order by 1) - 1', start_date) }}) as date_{{ datepart }}
    from rawdata
  ),
  filtered as (
    select * from all_periods
    where date_{{ datepart }} <= {{ end_date }}
  )
  select * from filtered
{%- endmacro %}
`;
