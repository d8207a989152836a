{#- Every order as it stands now: the latest version (highest load_date) of
    each order that has landed by the night being run. -#}
with ranked as (
    select
        *,
        row_number() over (partition by order_id order by load_date desc) as version_rank,
        count(*) over (partition by order_id) as versions
    from {{ ref('raw_orders') }}
    where load_date <= {{ as_of() }}
)

select
    order_id,
    order_date,
    status,
    cast(amount as {{ money_type() }}) as amount,
    load_date as last_loaded,
    versions
from ranked
where version_rank = 1
