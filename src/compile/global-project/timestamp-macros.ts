/**
 * dbt's current-time macros (current_timestamp, snapshot_get_time and the two
 * *_backcompat ones) for the internal `dbt` package. SQLite's clock is UTC and
 * its timestamps are text: datetime('now') gives 'YYYY-MM-DD HH:MM:SS' in UTC.
 * PostgreSQL's are dbt-postgres's: now(), and a timestamp without time zone
 * for snapshot_get_time.
 */
export const TIMESTAMP_MACROS = String.raw`
{% macro current_timestamp() -%}
  {{ adapter.dispatch('current_timestamp', 'dbt')() }}
{%- endmacro %}

{% macro default__current_timestamp() -%}
  {{ exceptions.raise_not_implemented('current_timestamp macro not implemented for adapter ' ~ adapter.type()) }}
{%- endmacro %}

{% macro sqlite__current_timestamp() -%}
  datetime('now')
{%- endmacro %}

{% macro postgres__current_timestamp() -%}
  now()
{%- endmacro %}


{% macro snapshot_get_time() -%}
  {{ adapter.dispatch('snapshot_get_time', 'dbt')() }}
{%- endmacro %}

{% macro default__snapshot_get_time() -%}
  {{ dbt.current_timestamp() }}
{%- endmacro %}

{#- dbt-postgres: a timestamp without time zone. -#}
{% macro postgres__snapshot_get_time() -%}
  {{ dbt.current_timestamp() }}::timestamp without time zone
{%- endmacro %}


{#- Kept for projects that called dbt_utils.current_timestamp(): a timestamp without time zone. -#}
{% macro current_timestamp_backcompat() -%}
  {{ return(adapter.dispatch('current_timestamp_backcompat', 'dbt')()) }}
{%- endmacro %}

{% macro default__current_timestamp_backcompat() -%}
  current_timestamp::timestamp
{%- endmacro %}

{% macro sqlite__current_timestamp_backcompat() -%}
  datetime('now')
{%- endmacro %}

{% macro postgres__current_timestamp_backcompat() -%}
  current_timestamp::{{ dbt.type_timestamp() }}
{%- endmacro %}


{% macro current_timestamp_in_utc_backcompat() -%}
  {{ return(adapter.dispatch('current_timestamp_in_utc_backcompat', 'dbt')()) }}
{%- endmacro %}

{% macro default__current_timestamp_in_utc_backcompat() -%}
  {{ return(adapter.dispatch('current_timestamp_backcompat', 'dbt')()) }}
{%- endmacro %}

{% macro postgres__current_timestamp_in_utc_backcompat() -%}
  (current_timestamp at time zone 'utc')::{{ dbt.type_timestamp() }}
{%- endmacro %}
`;
