/**
 * dbt's set_sql_header (global project, materializations/configs.sql): a `{% call %}` block whose body
 * becomes the model's sql_header config, for a header too long for a config() string:
 *   {% call set_sql_header(config) %} create temp table ... ; {% endcall %}
 */
export const SQL_HEADER_MACROS = String.raw`
{% macro set_sql_header(config) -%}
  {{ config.set('sql_header', caller()) }}
{%- endmacro %}
`;
