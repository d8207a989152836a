{{ config(
    materialized='incremental',
    incremental_strategy='append',
    partition_by='order_date'
) }}
{#- THE TRAP: the right day totals, recomputed for the whole lookback
    window from the latest version of every order, but *appended*: the
    window's days are inserted again without deleting their old rows. -#}
with versions as (
    select order_id, order_date, status, amount, load_date
    from {{ ref('raw_orders') }}
    where load_date <= {{ as_of() }}
    {%- if is_incremental() %}
      and order_date between {{ rewrite_window() }}
    {%- endif %}
),

latest as (
    select *, row_number() over (partition by order_id order by load_date desc) as version_rank
    from versions
)

select
    order_date,
    count(*) as orders,
    sum(case when status = 'delivered' then 1 else 0 end) as delivered_orders,
    round(coalesce(sum(case when status = 'delivered' then amount end), 0), 2) as revenue
from latest
where version_rank = 1
group by order_date
