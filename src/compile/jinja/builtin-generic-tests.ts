import type { MacroFile } from '../../project/project.js';

/**
 * dbt's built-in generic tests (adapters' generic_test_sql), each returning
 * the failing rows. A project macro of the same name replaces one.
 */
const SOURCE = `
{% test unique(model, column_name) %}
select
    {{ column_name }} as unique_field,
    count(*) as n_records
from {{ model }}
where {{ column_name }} is not null
group by {{ column_name }}
having count(*) > 1
{% endtest %}

{% test not_null(model, column_name) %}
select {{ '*' if should_store_failures() else column_name }}
from {{ model }}
where {{ column_name }} is null
{% endtest %}

{% test accepted_values(model, column_name, values, quote=true) %}
with all_values as (
    select
        {{ column_name }} as value_field,
        count(*) as n_records
    from {{ model }}
    group by {{ column_name }}
)
select *
from all_values
where value_field not in (
    {%- for value in values -%}
        {%- if quote -%}
        '{{ value | string | replace("'", "''") }}'
        {%- else -%}
        {{ value }}
        {%- endif -%}
        {%- if not loop.last -%}, {% endif -%}
    {%- endfor -%}
)
{% endtest %}

{% test relationships(model, column_name, to, field) %}
with child as (
    select {{ column_name }} as from_field
    from {{ model }}
    where {{ column_name }} is not null
),
parent as (
    select {{ field }} as to_field
    from {{ to }}
)
select
    from_field
from child
left join parent
    on child.from_field = parent.to_field
where parent.to_field is null
{% endtest %}
`;

export const BUILTIN_GENERIC_TESTS: MacroFile = { path: '<built-in generic tests>', absPath: '', source: SOURCE };

export const BUILTIN_TEST_NAMES: readonly string[] = ['unique', 'not_null', 'accepted_values', 'relationships'];
