/**
 * dbt's cast macros (cast, safe_cast, cast_bool_to_text) and equals, for the
 * internal `dbt` package. SQLite's cast never fails, so safe_cast is cast; its
 * booleans are 1 and 0, so cast_bool_to_text spells them 'true' and 'false'.
 */
export const CAST_MACROS = String.raw`
{% macro cast(field, type) -%}
  {{ return(adapter.dispatch('cast', 'dbt')(field, type)) }}
{%- endmacro %}

{% macro default__cast(field, type) -%}
  cast({{ field }} as {{ type }})
{%- endmacro %}


{% macro safe_cast(field, type) -%}
  {{ return(adapter.dispatch('safe_cast', 'dbt')(field, type)) }}
{%- endmacro %}

{#- Most warehouses have no cast that yields NULL on a bad value; SQLite's cast never raises. -#}
{% macro default__safe_cast(field, type) -%}
  cast({{ field }} as {{ type }})
{%- endmacro %}


{% macro cast_bool_to_text(field) -%}
  {{ adapter.dispatch('cast_bool_to_text', 'dbt')(field) }}
{%- endmacro %}

{% macro default__cast_bool_to_text(field) -%}
  cast({{ field }} as {{ dbt.type_string() }})
{%- endmacro %}

{% macro sqlite__cast_bool_to_text(field) -%}
  case when ({{ field }}) is null then null when ({{ field }}) then 'true' else 'false' end
{%- endmacro %}


{% macro equals(expr1, expr2) -%}
  {{ return(adapter.dispatch('equals', 'dbt')(expr1, expr2)) }}
{%- endmacro %}

{#-
  With dbt's behavior flag enable_truthy_nulls_equals_macro, NULL equals NULL; without it (dbt's
  default), this is plain '='. SQLite's IS is the null-safe comparison.
-#}
{% macro default__equals(expr1, expr2) -%}
  {%- set behavior = adapter.behavior if adapter.behavior is defined else none -%}
  {%- if behavior and behavior.enable_truthy_nulls_equals_macro and behavior.enable_truthy_nulls_equals_macro.no_warn -%}
    case when (({{ expr1 }} = {{ expr2 }}) or ({{ expr1 }} is null and {{ expr2 }} is null)) then 0 else 1 end = 0
  {%- else -%}
    ({{ expr1 }} = {{ expr2 }})
  {%- endif -%}
{%- endmacro %}

{#- PostgreSQL's null-safe comparison is IS NOT DISTINCT FROM. -#}
{% macro postgres__equals(expr1, expr2) -%}
  {%- set behavior = adapter.behavior if adapter.behavior is defined else none -%}
  {%- if behavior and behavior.enable_truthy_nulls_equals_macro and behavior.enable_truthy_nulls_equals_macro.no_warn -%}
    (({{ expr1 }}) is not distinct from ({{ expr2 }}))
  {%- else -%}
    (({{ expr1 }}) = ({{ expr2 }}))
  {%- endif -%}
{%- endmacro %}

{% macro sqlite__equals(expr1, expr2) -%}
  {%- set behavior = adapter.behavior if adapter.behavior is defined else none -%}
  {%- if behavior and behavior.enable_truthy_nulls_equals_macro and behavior.enable_truthy_nulls_equals_macro.no_warn -%}
    (({{ expr1 }}) is ({{ expr2 }}))
  {%- else -%}
    (({{ expr1 }}) = ({{ expr2 }}))
  {%- endif -%}
{%- endmacro %}
`;
