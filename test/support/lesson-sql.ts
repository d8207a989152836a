/**
 * The lesson's plain SQL, independent of mini-dbt's models: the feed CSV in
 * an in-memory SQLite table `raw_orders` (amount also in whole cents), and
 * day tables (order_date, orders, delivered_orders, revenue_cents) built the
 * way the lesson builds them: the latest version of an order wins, a run on
 * night R sees the rows with load_date <= R, a rewrite deletes its range and
 * inserts it again.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { addDays, dateRange } from '../../src/feed/iso-date.js';

export type Db = Database.Database;

export const FIRST_NIGHT = '2026-09-01';
export const LAST_NIGHT = '2026-10-31';

export function loadFeedCsv(path: string): Db {
  const db = new Database(':memory:');
  db.exec(`create table raw_orders (load_date text, order_id integer, order_date text, status text, amount text, cents integer)`);
  const [header, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  if (header !== 'load_date,order_id,order_date,status,amount') throw new Error(`unexpected header ${header}`);
  const insert = db.prepare(`insert into raw_orders values (?, ?, ?, ?, ?, cast(round(cast(? as real) * 100) as integer))`);
  db.transaction(() => {
    for (const line of lines) {
      const [loadDate, orderId, orderDate, status, amount] = line.split(',');
      insert.run(loadDate, Number(orderId), orderDate, status, amount, amount);
    }
  })();
  return db;
}

const DAYS_AS_OF = `
  with latest as (
    select *, row_number() over (partition by order_id order by load_date desc) as version_rank
    from raw_orders
    where load_date <= @asOf and order_date between @from and @to
  )
  select order_date, count(*) as orders, sum(status = 'delivered') as delivered_orders,
         coalesce(sum(case when status = 'delivered' then cents end), 0) as revenue_cents
  from latest where version_rank = 1 group by order_date`;

/** A new day table `name`, empty. */
export function createDayTable(db: Db, name: string): void {
  db.exec(`drop table if exists ${name};
    create table ${name} (order_date text primary key, orders integer, delivered_orders integer, revenue_cents integer)`);
}

/** Delete from..to in `name`, insert it again from the rows landed by asOf. */
export function rewriteRange(db: Db, name: string, asOf: string, from: string, to: string): void {
  db.prepare(`delete from ${name} where order_date between ? and ?`).run(from, to);
  db.prepare(`insert into ${name} ${DAYS_AS_OF}`).run({ asOf, from, to });
}

/** The full rebuild as of `asOf` into `name`. */
export function fullRebuild(db: Db, name: string, asOf = LAST_NIGHT): void {
  createDayTable(db, name);
  rewriteRange(db, name, asOf, '0000-01-01', '9999-12-31');
}

/** nightly(L): a full build as of 2026-09-01, then each night R to 2026-10-31 rewrites R-L..R as of R. */
export function nightly(db: Db, name: string, lookback: number): void {
  fullRebuild(db, name, FIRST_NIGHT);
  for (const night of dateRange(addDays(FIRST_NIGHT, 1), LAST_NIGHT)) rewriteRange(db, name, night, addDays(night, -lookback), night);
}

/** Days whose row differs between two day tables, or is in only one of them. */
export function staleDays(db: Db, table: string, truth: string): string[] {
  const rows = db
    .prepare(
      `select coalesce(t.order_date, f.order_date) as day
       from ${truth} f full outer join ${table} t on t.order_date = f.order_date
       where t.order_date is null or f.order_date is null
          or t.orders <> f.orders or t.delivered_orders <> f.delivered_orders or t.revenue_cents <> f.revenue_cents
       order by day`,
    )
    .all() as Array<{ day: string }>;
  return rows.map((r) => r.day);
}

/** Orders and revenue (in cents) of one month of a day table. */
export function monthTotals(db: Db, name: string, month: string): { orders: number; revenue_cents: number } {
  return db
    .prepare(`select sum(orders) as orders, sum(revenue_cents) as revenue_cents from ${name} where substr(order_date, 1, 7) = ?`)
    .get(month) as { orders: number; revenue_cents: number };
}
