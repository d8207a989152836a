import { writeProject } from './example-project.js';
import { rawOrdersSeedFiles, type RawOrderRow } from './raw-orders-seed.js';

/** One raw row: a version of an order, as it landed. */
export type LateOrderRow = RawOrderRow;

/**
 * Ten versions of seven orders over six nights. Lookback 2: a run on night R
 * rewrites R-2..R. Order 3's refund lands 2 days late (inside the window:
 * applied); orders 1 and 2's refunds land 4 days late, on 2026-01-05, when
 * the window is 2026-01-03..2026-01-05 (not applied: 2026-01-01 goes stale).
 */
export const LATE_ORDER_ROWS: readonly LateOrderRow[] = [
  { load_date: '2026-01-01', order_id: 1, order_date: '2026-01-01', status: 'delivered', amount: 10 },
  { load_date: '2026-01-01', order_id: 2, order_date: '2026-01-01', status: 'delivered', amount: 20 },
  { load_date: '2026-01-02', order_id: 3, order_date: '2026-01-02', status: 'delivered', amount: 30 },
  { load_date: '2026-01-03', order_id: 4, order_date: '2026-01-03', status: 'delivered', amount: 40 },
  { load_date: '2026-01-04', order_id: 5, order_date: '2026-01-04', status: 'delivered', amount: 50 },
  { load_date: '2026-01-04', order_id: 3, order_date: '2026-01-02', status: 'refunded', amount: 30 },
  { load_date: '2026-01-05', order_id: 6, order_date: '2026-01-05', status: 'delivered', amount: 60 },
  { load_date: '2026-01-05', order_id: 1, order_date: '2026-01-01', status: 'refunded', amount: 10 },
  { load_date: '2026-01-05', order_id: 2, order_date: '2026-01-01', status: 'refunded', amount: 20 },
  { load_date: '2026-01-06', order_id: 7, order_date: '2026-01-06', status: 'delivered', amount: 70 },
];

export const LOOKBACK = 2;

const MODEL = `{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='order_date', partition_by='order_date') }}
{%- set as_of = var('as_of', '9998-12-31') %}
with versions as (
    select * from {{ ref('raw_orders') }}
    where load_date <= '{{ as_of }}'
    {%- if is_incremental() %}
      and order_date between date('{{ as_of }}', '-{{ var("lookback_days") }} days') and '{{ as_of }}'
    {%- endif %}
),
latest as (select *, row_number() over (partition by order_id order by load_date desc) as version_rank from versions)
select order_date, count(*) as orders, round(coalesce(sum(case when status = 'delivered' then amount end), 0), 2) as revenue
from latest where version_rank = 1 group by order_date
`;

/** The project: raw_orders (event_time order_date, loaded_at load_date, the example's two indexes) and daily_revenue. */
export function lateOrdersProject(rows: readonly LateOrderRow[] = LATE_ORDER_ROWS): string {
  return writeProject({
    'project.yml': `name: late_orders\ndatabase: warehouse.db\nvars:\n  lookback_days: ${LOOKBACK}\n`,
    ...rawOrdersSeedFiles(rows),
    'models/daily_revenue.sql': MODEL,
  });
}
