import { openWarehouse } from '../engine/open-warehouse.js';
import { addDays } from '../feed/iso-date.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import type { Session } from './session.js';
import { LESSON_MODEL, LESSON_SEED } from './lesson-project.js';

export interface MonthTotal {
  readonly month: string;
  readonly orders: number;
  readonly revenue: number;
}

/** daily_revenue's totals per month in a warehouse file (read-only). */
export function monthTotals(database: string): MonthTotal[] {
  const db = openWarehouse(database, { readonly: true });
  try {
    return db.prepare<MonthTotal>(
      `select substr(cast(order_date as text), 1, 7) as month, sum(orders) as orders, round(sum(revenue), 2) as revenue from ${quoteIdentifier(LESSON_MODEL)} group by 1 order by 1`,
    ).all();
  } finally {
    db.close();
  }
}

export interface FeedTotals {
  /** Rows of the raw feed (one per version of an order). */
  readonly rows: number;
  readonly orders: number;
  /**
   * What adding each night's landed rows to the day totals would give (trap 1, upsert +=):
   * every row counts as an order, every delivered row's amount is added, a refund removes nothing.
   */
  readonly upsertOrders: number;
  readonly upsertRevenue: number;
}

/** Counts of the raw feed, straight from its rows. */
export function feedTotals(session: Session): FeedTotals {
  const db = openWarehouse(session.project.databasePath, { readonly: true });
  try {
    const table = quoteIdentifier(session.manifest.seeds.get(LESSON_SEED)!.alias);
    const row = db.prepare<{ rows: number; orders: number; revenue: number }>(
      `select count(*) as rows, count(distinct order_id) as orders, round(coalesce(sum(case when status = 'delivered' then amount end), 0), 2) as revenue from ${table}`,
    ).get()!;
    return { rows: row.rows, orders: row.orders, upsertOrders: row.rows, upsertRevenue: row.revenue };
  } finally {
    db.close();
  }
}

/** The nights of a feed: the night after its first order day, through the last night anything landed. */
export function storyNights(database: string, table: string): { from: string; to: string; firstDay: string } {
  const db = openWarehouse(database, { readonly: true });
  try {
    const r = db.prepare<{ first: string; last: string }>(`select min(order_date) as first, max(load_date) as last from ${quoteIdentifier(table)}`).get()!;
    return { from: addDays(String(r.first), 1), to: r.last, firstDay: r.first };
  } finally {
    db.close();
  }
}

