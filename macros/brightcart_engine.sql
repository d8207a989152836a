{#- The two places where the example's SQL differs between engines, dispatched
    the dbt way: adapter.dispatch tries sqlite__ (or postgres__) first, then
    default__. -#}

{#- The YYYY-MM-DD day `days` days before `day` (a YYYY-MM-DD text or date). -#}
{% macro days_before(day, days) -%}
  {{ return(adapter.dispatch('days_before', 'brightcart')(day, days)) }}
{%- endmacro %}

{% macro sqlite__days_before(day, days) -%}
  date({{ day }}, '-{{ days }} days')
{%- endmacro %}

{% macro postgres__days_before(day, days) -%}
  to_char(cast({{ day }} as date) - {{ days }}, 'YYYY-MM-DD')
{%- endmacro %}

{#- The type of money amounts: exact to the cent. SQLite stores a REAL (its
    sums of two-decimal amounts round back to the cent); PostgreSQL's real is
    a 4-byte float, so there it is numeric(12,2). -#}
{% macro money_type() -%}
  {{ return(adapter.dispatch('money_type', 'brightcart')()) }}
{%- endmacro %}

{% macro sqlite__money_type() -%} real {%- endmacro %}

{% macro postgres__money_type() -%} numeric(12,2) {%- endmacro %}
