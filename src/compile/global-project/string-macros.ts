/**
 * dbt's string macros for the internal `dbt` package: concat, hash, length,
 * position, replace, right, split_part, string_literal, escape_single_quotes.
 * Where SQLite's function already does what dbt's default writes (length,
 * replace, `||`), the default stands; the rest have sqlite__ versions.
 */
export const STRING_MACROS = String.raw`
{% macro concat(fields) -%}
  {{ return(adapter.dispatch('concat', 'dbt')(fields)) }}
{%- endmacro %}

{% macro default__concat(fields) -%}
  {{ fields | join(' || ') }}
{%- endmacro %}


{% macro hash(field) -%}
  {{ return(adapter.dispatch('hash', 'dbt')(field)) }}
{%- endmacro %}

{% macro default__hash(field) -%}
  md5(cast({{ field }} as {{ dbt.type_string() }}))
{%- endmacro %}

{#- md5 is a function mini-dbt registers on every SQLite connection (lowercase hex, like PostgreSQL's). -#}
{% macro sqlite__hash(field) -%}
  md5(cast({{ field }} as text))
{%- endmacro %}


{% macro length(expression) -%}
  {{ return(adapter.dispatch('length', 'dbt')(expression)) }}
{%- endmacro %}

{% macro default__length(expression) -%}
  length({{ expression }})
{%- endmacro %}


{% macro position(substring_text, string_text) -%}
  {{ return(adapter.dispatch('position', 'dbt')(substring_text, string_text)) }}
{%- endmacro %}

{% macro default__position(substring_text, string_text) -%}
  position({{ substring_text }} in {{ string_text }})
{%- endmacro %}

{% macro sqlite__position(substring_text, string_text) -%}
  instr({{ string_text }}, {{ substring_text }})
{%- endmacro %}


{% macro replace(field, old_chars, new_chars) -%}
  {{ return(adapter.dispatch('replace', 'dbt')(field, old_chars, new_chars)) }}
{%- endmacro %}

{% macro default__replace(field, old_chars, new_chars) -%}
  replace({{ field }}, {{ old_chars }}, {{ new_chars }})
{%- endmacro %}


{% macro right(string_text, length_expression) -%}
  {{ return(adapter.dispatch('right', 'dbt')(string_text, length_expression)) }}
{%- endmacro %}

{% macro default__right(string_text, length_expression) -%}
  right({{ string_text }}, {{ length_expression }})
{%- endmacro %}

{#- right() takes an integer length: a bigint column (mini-dbt's seeds type whole numbers bigint) is cast to one. -#}
{% macro postgres__right(string_text, length_expression) -%}
  right({{ string_text }}, cast({{ length_expression }} as integer))
{%- endmacro %}

{#- PostgreSQL's right(): the last n characters ('' for 0, all for more than there are); a negative n drops the first |n|. -#}
{% macro sqlite__right(string_text, length_expression) -%}
  {%- set n = '(' ~ length_expression ~ ')' -%}
  case when {{ n }} < 0 then substr({{ string_text }}, 1 - {{ n }})
       else substr({{ string_text }}, max(length({{ string_text }}) - {{ n }} + 1, 1)) end
{%- endmacro %}


{% macro split_part(string_text, delimiter_text, part_number) -%}
  {{ return(adapter.dispatch('split_part', 'dbt')(string_text, delimiter_text, part_number)) }}
{%- endmacro %}

{% macro default__split_part(string_text, delimiter_text, part_number) -%}
  split_part({{ string_text }}, {{ delimiter_text }}, {{ part_number }})
{%- endmacro %}

{#-
  SQLite has no split_part: a correlated subquery walks the string with a recursive CTE, one row per
  part (__dbt_idx from 1). Part n counts from the start, a negative n from the end (PostgreSQL 14+);
  a part past the end is '' and a NULL string or delimiter gives NULL. An empty delimiter leaves the
  string whole (one part).
-#}
{% macro sqlite__split_part(string_text, delimiter_text, part_number) -%}
  {%- set s = '(' ~ string_text ~ ')' -%}
  {%- set d = '(' ~ delimiter_text ~ ')' -%}
  {%- set n = '(' ~ part_number ~ ')' -%}
  (with recursive __dbt_split(__dbt_rest, __dbt_part, __dbt_idx) as (
      select iif({{ d }} = '', '', {{ s }} || {{ d }}), iif({{ d }} = '', {{ s }}, null), iif({{ d }} = '', 1, 0)
      union all
      select substr(__dbt_rest, instr(__dbt_rest, {{ d }}) + length({{ d }})), substr(__dbt_rest, 1, instr(__dbt_rest, {{ d }}) - 1), __dbt_idx + 1
      from __dbt_split where __dbt_rest <> ''
    )
    select case when {{ s }} is null or {{ d }} is null then null
                else coalesce(max(case when __dbt_idx = iif({{ n }} < 0, __dbt_count + 1 + {{ n }}, {{ n }}) then __dbt_part end), '') end
    from __dbt_split, (select max(__dbt_idx) as __dbt_count from __dbt_split))
{%- endmacro %}


{% macro string_literal(value) -%}
  {{ return(adapter.dispatch('string_literal', 'dbt')(value)) }}
{%- endmacro %}

{% macro default__string_literal(value) -%}
  '{{ value }}'
{%- endmacro %}


{% macro escape_single_quotes(expression) -%}
  {{ return(adapter.dispatch('escape_single_quotes', 'dbt')(expression)) }}
{%- endmacro %}

{#- Doubles each single quote: they're -> they''re. -#}
{% macro default__escape_single_quotes(expression) -%}
  {{ expression | replace("'", "''") }}
{%- endmacro %}
`;
