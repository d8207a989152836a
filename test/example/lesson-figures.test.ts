/**
 * Every figure of the lesson's table (spec "The lesson's figures"), measured
 * on the example feed seeds/raw_orders.csv with plain SQL, without mini-dbt:
 * the nightly replays, backfills and traps are done here by their definition.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedToCsv, generateFeed } from '../../src/feed/generate-feed.js';
import { dateRange } from '../../src/feed/iso-date.js';
import { REPO_ROOT } from '../support/example-project.js';
import {
  createDayTable,
  fullRebuild,
  loadFeedCsv,
  monthTotals,
  nightly,
  rewriteRange,
  staleDays,
  type Db,
} from '../support/lesson-sql.js';

const CSV = join(REPO_ROOT, 'seeds', 'raw_orders.csv');
let db: Db;

const scalar = (sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params);
const dayRow = (table: string, day: string) =>
  db.prepare(`select orders, delivered_orders, revenue_cents from ${table} where order_date = ?`).get(day);

beforeAll(() => {
  db = loadFeedCsv(CSV);
  fullRebuild(db, 'full_rebuild');
  nightly(db, 'nightly_3', 3);
});
afterAll(() => db.close());

describe("the example feed reproduces the lesson's figures", () => {
  it('raw feed: 1,124 rows, 1,032 orders, first order_date 2026-09-01, last load_date 2026-10-31', () => {
    expect(db.prepare(`select count(*) as rows, count(distinct order_id) as orders, min(order_date) as first, max(load_date) as last from raw_orders`).get())
      .toEqual({ rows: 1124, orders: 1032, first: '2026-09-01', last: '2026-10-31' });
    expect(scalar(`select count(distinct order_id) from raw_orders where order_date like '2026-09-%'`)).toBe(491);
    expect(scalar(`select count(distinct order_id) from raw_orders where order_date like '2026-10-%'`)).toBe(541);
  });

  it('the first order ever refunded is 50044: delivered on 3 September, refunded 6 days late', () => {
    expect(scalar(`select min(order_id) from raw_orders where status = 'refunded'`)).toBe(50044);
    expect(db.prepare(`select load_date, order_id, order_date, status, amount from raw_orders where order_id = 50044 order by load_date`).all()).toEqual([
      { load_date: '2026-09-03', order_id: 50044, order_date: '2026-09-03', status: 'delivered', amount: '716.20' },
      { load_date: '2026-09-09', order_id: 50044, order_date: '2026-09-03', status: 'refunded', amount: '716.20' },
    ]);
  });

  it('lateness histogram 0: 840 ... 11: 1; 66 rows more than 3 days late, all refunds; longest 11', () => {
    const histogram = db
      .prepare(`select julianday(load_date) - julianday(order_date) as days, count(*) as n from raw_orders group by days order by days`)
      .all() as Array<{ days: number; n: number }>;
    expect(Object.fromEntries(histogram.map((h) => [h.days, h.n]))).toEqual({ 0: 840, 1: 164, 2: 45, 3: 9, 4: 7, 5: 10, 6: 10, 7: 11, 8: 11, 9: 13, 10: 3, 11: 1 });
    const late = `from raw_orders where julianday(load_date) - julianday(order_date) > 3`;
    expect(db.prepare(`select count(*) as n, sum(status = 'refunded') as refunds ${late}`).get()).toEqual({ n: 66, refunds: 66 });
    expect(scalar(`select max(julianday(load_date) - julianday(order_date)) from raw_orders`)).toBe(11);
  });

  it('percentiles of lateness (sorted list, index int(0.95 n), int(0.99 n), max): 5, 9, 11', () => {
    const sorted = db.prepare(`select julianday(load_date) - julianday(order_date) from raw_orders order by 1`).pluck().all() as number[];
    expect([sorted[Math.floor(0.95 * sorted.length)], sorted[Math.floor(0.99 * sorted.length)], sorted.at(-1)]).toEqual([5, 9, 11]);
  });

  it('full rebuild as of 2026-10-31: 61 day rows; September 491 orders, 188,483.88; October 541 orders, 211,109.10', () => {
    expect(scalar(`select count(*) from full_rebuild`)).toBe(61);
    expect(monthTotals(db, 'full_rebuild', '2026-09')).toEqual({ orders: 491, revenue_cents: 18_848_388 });
    expect(monthTotals(db, 'full_rebuild', '2026-10')).toEqual({ orders: 541, revenue_cents: 21_110_910 });
  });

  it('nightly(3): September 491 orders, 206,459.60; October 541 orders, 222,372.29; 41 stale days, 2026-09-03 to 2026-10-26', () => {
    expect(monthTotals(db, 'nightly_3', '2026-09')).toEqual({ orders: 491, revenue_cents: 20_645_960 });
    expect(monthTotals(db, 'nightly_3', '2026-10')).toEqual({ orders: 541, revenue_cents: 22_237_229 });
    const stale = staleDays(db, 'nightly_3', 'full_rebuild');
    expect([stale.length, stale[0], stale.at(-1)]).toEqual([41, '2026-09-03', '2026-10-26']);
  });

  it('3 September: orders 15, delivered 15, 6,991.42 after nightly(3); 15, 14, 6,275.22 in the full rebuild (order 50044)', () => {
    expect(dayRow('nightly_3', '2026-09-03')).toEqual({ orders: 15, delivered_orders: 15, revenue_cents: 699_142 });
    expect(dayRow('full_rebuild', '2026-09-03')).toEqual({ orders: 15, delivered_orders: 14, revenue_cents: 627_522 });
    expect(scalar(`select cents from raw_orders where order_id = 50044 and status = 'delivered'`)).toBe(699_142 - 627_522);
  });

  it('a backfill of 2026-09-03..2026-10-26 as of 2026-10-31 rewrites 54 day rows and makes nightly(3) equal the full rebuild', () => {
    nightly(db, 'backfilled', 3);
    rewriteRange(db, 'backfilled', '2026-10-31', '2026-09-03', '2026-10-26');
    expect(scalar(`select count(*) from backfilled where order_date between '2026-09-03' and '2026-10-26'`)).toBe(54);
    expect(staleDays(db, 'backfilled', 'full_rebuild')).toEqual([]);
  });

  it('nightly(11) equals the full rebuild (and nightly(10) does not)', () => {
    nightly(db, 'nightly_11', 11);
    expect(staleDays(db, 'nightly_11', 'full_rebuild')).toEqual([]);
    nightly(db, 'nightly_10', 10);
    expect(staleDays(db, 'nightly_10', 'full_rebuild').length).toBeGreaterThan(0);
  });

  it('Step 7 window: 210 of 1,124 rows have order_date 2026-10-20..2026-10-31 and load_date <= 2026-10-31', () => {
    expect(scalar(`select count(*) from raw_orders where order_date between '2026-10-20' and '2026-10-31' and load_date <= '2026-10-31'`)).toBe(210);
  });

  it("trap 1 (upsert +=, nights 2026-09-01..2026-10-31): 1,124 orders, 439,004.18, vs the full rebuild's 1,032 and 399,592.98", () => {
    createDayTable(db, 'upsert');
    const addTonight = db.prepare(`
      insert into upsert
      select order_date, count(*), sum(status = 'delivered'), coalesce(sum(case when status = 'delivered' then cents end), 0)
      from raw_orders where load_date = ? group by order_date
      on conflict (order_date) do update set orders = orders + excluded.orders,
        delivered_orders = delivered_orders + excluded.delivered_orders, revenue_cents = revenue_cents + excluded.revenue_cents`);
    for (const night of dateRange('2026-09-01', '2026-10-31')) addTonight.run(night);
    expect(db.prepare(`select sum(orders) as orders, sum(revenue_cents) as revenue_cents from upsert`).get()).toEqual({ orders: 1124, revenue_cents: 43_900_418 });
    expect(db.prepare(`select sum(orders) as orders, sum(revenue_cents) as revenue_cents from full_rebuild`).get()).toEqual({ orders: 1032, revenue_cents: 39_959_298 });
  });

  it('trap 2: nightly(3), then 2026-09-03..2026-10-26 deleted and refilled as of the old 2026-10-01: 32 days still stale', () => {
    nightly(db, 'old_as_of', 3);
    rewriteRange(db, 'old_as_of', '2026-10-01', '2026-09-03', '2026-10-26');
    expect(staleDays(db, 'old_as_of', 'full_rebuild')).toHaveLength(32);
    // The same 32 when the days with no rows yet keep their nightly row (delete+insert keyed on the new rows).
    nightly(db, 'old_as_of_kept', 3);
    db.prepare(`delete from old_as_of_kept where order_date in (select order_date from raw_orders where load_date <= '2026-10-01' and order_date between '2026-09-03' and '2026-10-26')`).run();
    db.prepare(`insert into old_as_of_kept select * from old_as_of where order_date in (select order_date from raw_orders where load_date <= '2026-10-01' and order_date between '2026-09-03' and '2026-10-26')`).run();
    expect(staleDays(db, 'old_as_of_kept', 'full_rebuild')).toHaveLength(32);
  });

  it('the feed is what `npm run generate-feed` writes (the default seed and range)', () => {
    expect(readFileSync(CSV, 'utf8')).toBe(feedToCsv(generateFeed()));
  });
});
