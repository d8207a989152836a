import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { DayRevenue } from './revenue-oracle.js';

/** Every row of a table, ordered by all columns, from the project's warehouse.db. */
export function tableRows(projectDir: string, table: string, database = join(projectDir, 'warehouse.db')): Record<string, unknown>[] {
  const db = new Database(database, { readonly: true });
  try {
    const cols = (db.prepare('select name from pragma_table_info(?)').all(table) as { name: string }[]).map((c) => `"${c.name}"`);
    if (cols.length === 0) return [];
    return db.prepare(`select * from "${table}" order by ${cols.join(', ')}`).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** daily_revenue as a map keyed by order_date, comparable with the oracle's tables. */
export function dailyRevenue(projectDir: string): Map<string, DayRevenue> {
  return new Map(
    (tableRows(projectDir, 'daily_revenue') as unknown as DayRevenue[]).map((r) => [r.order_date, { order_date: r.order_date, orders: r.orders, delivered_orders: r.delivered_orders, revenue: r.revenue }]),
  );
}

/** The oracle's table in the same shape (plain objects, sorted). */
export function asPlain(table: ReadonlyMap<string, DayRevenue>): DayRevenue[] {
  return [...table.values()].sort((a, b) => a.order_date.localeCompare(b.order_date)).map((d) => ({ ...d }));
}
