/**
 * SQLite versions of dbt_utils macros whose default SQL SQLite cannot run.
 * mini-dbt's own text (not dbt_utils'): each keeps the package macro's
 * arguments and result shape.
 */
export const DBT_UTILS_SHIMS = String.raw`
{#- The tables and views whose schema and name match the LIKE patterns, from
    each attached database's sqlite_master (SQLite has no information_schema).
    SQLite's LIKE ignores ASCII case, as ilike does. mini-dbt's ledger tables are left out. -#}
{% macro sqlite__get_tables_by_pattern_sql(schema_pattern, table_pattern, exclude='', database=target.database) %}
  {%- set schemas = adapter.list_schemas(database) -%}
  {%- if schemas | length == 0 %}
    select null as {{ adapter.quote('table_schema') }}, null as {{ adapter.quote('table_name') }}, null as {{ adapter.quote('table_type') }} where 0 = 1
  {%- endif -%}
  {%- for schema in schemas %}
    select distinct
      '{{ schema }}' as {{ adapter.quote('table_schema') }},
      name as {{ adapter.quote('table_name') }},
      type as {{ adapter.quote('table_type') }}
    from {{ adapter.quote(schema) }}.sqlite_master
    where type in ('table', 'view')
      and name not like 'sqlite\_%' escape '\'
      and name not like '\_mini\_dbt\_%' escape '\'
      and '{{ schema }}' like '{{ schema_pattern }}'
      and name like '{{ table_pattern }}'
      and name not like '{{ exclude }}'
    {% if not loop.last %}union all{% endif %}
  {%- endfor %}
{% endmacro %}

{#- SQLite does not accept a parenthesised select as a member of a union:
    the package's own union is kept and each member becomes a subquery. -#}
{% macro sqlite__union_relations(relations, column_override=none, include=[], exclude=[], source_column_name='_dbt_source_relation', where=none) %}
  {%- set members = dbt_utils.default__union_relations(relations, column_override, include, exclude, source_column_name, where) -%}
  {%- if members | trim == '' -%}
    {{ return(members) }}
  {%- endif -%}
  {%- set opened = modules.re.sub('^\\s*\\(', 'select * from (', members) -%}
  {{ return(modules.re.sub('\\)\\s*union all\\s*\\(', ') union all select * from (', opened)) }}
{% endmacro %}

{#- One row per partition, as PostgreSQL's distinct on gives: the package's
    default joins the numbered rows back with a natural join, which drops every
    row holding a NULL (NULL never equals NULL). A relation's columns are
    listed so the row number stays out; anything else (a CTE's name) keeps the
    package's default. -#}
{% macro sqlite__deduplicate(relation, partition_by, order_by) -%}
  {%- set columns = adapter.get_columns_in_relation(relation) if relation is not string else [] -%}
  {%- if columns | length == 0 -%}
    {{ return(dbt_utils.default__deduplicate(relation, partition_by, order_by)) }}
  {%- endif %}
    select {% for column in columns %}{{ column.quoted }}{% if not loop.last %}, {% endif %}{% endfor %}
    from (
        select _inner.*, row_number() over (partition by {{ partition_by }} order by {{ order_by }}) as dbt_utils_deduplicate_rn
        from {{ relation }} as _inner
    ) as numbered
    where dbt_utils_deduplicate_rn = 1
{%- endmacro %}

{#- width_bucket with SQLite's two-argument min() for least(). -#}
{% macro sqlite__width_bucket(expr, min_value, max_value, num_buckets) -%}
  {%- set bucket_width = '((' ~ max_value ~ ' - ' ~ min_value ~ ') / ' ~ num_buckets ~ ')' -%}
  (case when mod({{ dbt.safe_cast(expr, dbt.type_numeric()) }}, {{ dbt.safe_cast(bucket_width, dbt.type_numeric()) }}) = 0 then 1 else 0 end)
  + min(ceil(({{ expr }} - {{ min_value }}) / {{ bucket_width }}), {{ num_buckets }} + 1)
{%- endmacro %}
`;
