{#- Month totals, rebuilt from daily_revenue on every run. -#}
select
    substr(order_date, 1, 7) as month,
    sum(orders) as orders,
    sum(delivered_orders) as delivered_orders,
    round(sum(revenue), 2) as revenue
from {{ ref('daily_revenue') }}
group by substr(order_date, 1, 7)
