import { loadSession, run, type Session } from '../../src/index.js';
import { dateRange } from '../../src/feed/iso-date.js';
import { writeProject } from './example-project.js';
import { rawOrdersSeedFiles, type RawOrderRow } from './raw-orders-seed.js';

/** One raw row: a version of an order, as it landed. */
export type PlaybookRow = RawOrderRow;

/**
 * Eleven orders over ten nights (2026-01-01..2026-01-10), one a day (two on
 * the 1st), and three refunds each landing 5 days late: order 1 (day 01-01)
 * on 01-06, order 4 (01-03) on 01-08, order 6 (01-05) on 01-10. With a
 * 1-day lookback each refund lands after the last night that rewrites its
 * day, so after the nightly job 01-01, 01-03 and 01-05 are stale: three
 * disjoint ranges. Live revenue there: 30, 40, 60; a full rebuild: 20, 0, 0.
 */
export const PLAYBOOK_ROWS: readonly PlaybookRow[] = [
  { load_date: '2026-01-01', order_id: 1, order_date: '2026-01-01', status: 'delivered', amount: 10 },
  { load_date: '2026-01-01', order_id: 2, order_date: '2026-01-01', status: 'delivered', amount: 20 },
  { load_date: '2026-01-02', order_id: 3, order_date: '2026-01-02', status: 'delivered', amount: 30 },
  { load_date: '2026-01-03', order_id: 4, order_date: '2026-01-03', status: 'delivered', amount: 40 },
  { load_date: '2026-01-04', order_id: 5, order_date: '2026-01-04', status: 'delivered', amount: 50 },
  { load_date: '2026-01-05', order_id: 6, order_date: '2026-01-05', status: 'delivered', amount: 60 },
  { load_date: '2026-01-06', order_id: 7, order_date: '2026-01-06', status: 'delivered', amount: 70 },
  { load_date: '2026-01-06', order_id: 1, order_date: '2026-01-01', status: 'refunded', amount: 10 },
  { load_date: '2026-01-07', order_id: 8, order_date: '2026-01-07', status: 'delivered', amount: 80 },
  { load_date: '2026-01-08', order_id: 9, order_date: '2026-01-08', status: 'delivered', amount: 90 },
  { load_date: '2026-01-08', order_id: 4, order_date: '2026-01-03', status: 'refunded', amount: 40 },
  { load_date: '2026-01-09', order_id: 10, order_date: '2026-01-09', status: 'delivered', amount: 100 },
  { load_date: '2026-01-10', order_id: 11, order_date: '2026-01-10', status: 'delivered', amount: 110 },
  { load_date: '2026-01-10', order_id: 6, order_date: '2026-01-05', status: 'refunded', amount: 60 },
];

/** The nightly job's lookback, in days. */
export const PLAYBOOK_LOOKBACK = 1;

/** Revenue per order day, recomputed for whole days; with start/end vars exactly that range (a backfill). */
const MODEL = `{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='order_date', partition_by='order_date') }}
with versions as (
    select * from {{ ref('raw_orders') }}
    where load_date <= {% if var('as_of', none) is none %}(select max(load_date) from {{ ref('raw_orders') }}){% else %}'{{ var("as_of") }}'{% endif %}
    {%- if is_incremental() %}
    {%- if var('start', none) is not none %}
      and order_date between '{{ var("start") }}' and '{{ var("end") }}'
    {%- else %}
      and order_date between date('{{ var("as_of") }}', '-{{ var("lookback_days") }} days') and '{{ var("as_of") }}'
    {%- endif %}
    {%- endif %}
),
latest as (select *, row_number() over (partition by order_id order by load_date desc) as version_rank from versions)
select order_date, count(*) as orders, round(coalesce(sum(case when status = 'delivered' then amount end), 0), 2) as revenue
from latest where version_rank = 1 group by order_date
`;

/** The project: raw_orders (event_time order_date, loaded_at load_date, indexed as the example's), daily_revenue, and extra files. */
export function playbookProject(rows: readonly PlaybookRow[] = PLAYBOOK_ROWS, extra: Readonly<Record<string, string>> = {}): string {
  return writeProject({
    'project.yml': `name: playbook\ndatabase: warehouse.db\nvars:\n  lookback_days: ${PLAYBOOK_LOOKBACK}\n`,
    ...rawOrdersSeedFiles(rows),
    'models/daily_revenue.sql': MODEL,
    ...extra,
  });
}

/** Seeded, built in full as of the first night, then one run a night to the last: the nightly job's table. */
export async function nightlyPlaybook(rows: readonly PlaybookRow[] = PLAYBOOK_ROWS, extra: Readonly<Record<string, string>> = {}): Promise<{ dir: string; session: Session }> {
  const dir = playbookProject(rows, extra);
  const session = loadSession({ projectDir: dir });
  const must = async (p: ReturnType<typeof run>) => {
    const r = await p;
    if (r.exitCode !== 0) throw new Error(r.results.map((x) => x.message).join('; '));
  };
  await must(run({ session, command: 'seed', writeArtifacts: false }));
  const nights = dateRange(rows[0]!.load_date, rows[rows.length - 1]!.load_date);
  await must(run({ session, select: ['daily_revenue'], fullRefresh: true, vars: { as_of: nights[0]! }, writeArtifacts: false }));
  for (const night of nights.slice(1)) await must(run({ session, select: ['daily_revenue'], vars: { as_of: night }, writeArtifacts: false }));
  return { dir, session };
}
