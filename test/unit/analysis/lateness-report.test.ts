import { openWarehouse } from '../../../src/engine/open-warehouse.js';
import { describe, expect, it } from 'vitest';
import { latenessReport } from '../../../src/analysis/lateness-report.js';
import { generateFeed, type FeedRow } from '../../../src/feed/generate-feed.js';
import { daysBetween } from '../../../src/feed/iso-date.js';

function warehouse(rows: readonly Partial<FeedRow>[]) {
  const db = openWarehouse(':memory:');
  db.exec('create table raw (load_date text, order_id integer, order_date text, status text, amount real)');
  const insert = db.prepare('insert into raw values (@load_date, @order_id, @order_date, @status, @amount)');
  for (const r of rows) insert.run({ load_date: null, order_id: 1, order_date: null, status: 'delivered', amount: 1, ...r });
  return db;
}
const columns = { eventTime: 'order_date', loadedAt: 'load_date' };

describe('latenessReport', () => {
  it('reproduces the story figures on the reference feed', () => {
    const report = latenessReport(warehouse(generateFeed()), { relation: 'raw', columns, lookback: 3, by: 'status' });
    expect(report.rows).toBe(1124);
    expect(report.histogram.map((b) => b.rows)).toEqual([840, 164, 45, 9, 7, 10, 10, 11, 11, 13, 3, 1]);
    expect(report.percentiles).toEqual({ p50: 0, p90: 2, p95: 5, p99: 9, max: 11 });
    expect(report.required_lookback).toBe(11);
    expect(report.missed).toEqual({ lookback: 3, rows: 66, days: 41, by: 'status', groups: { refunded: 66 } });
  });

  it('agrees with a plain count on the second feed', () => {
    const feed = generateFeed({ seed: 2027 });
    const report = latenessReport(warehouse(feed), { relation: 'raw', columns, lookback: 5 });
    const late = feed.map((r) => daysBetween(r.order_date, r.load_date));
    expect(report.max_days).toBe(Math.max(...late));
    expect(report.max_days).toBe(14);
    expect(report.missed.rows).toBe(late.filter((d) => d > 5).length);
    for (const bin of report.histogram) expect(bin.rows).toBe(late.filter((d) => d === bin.days).length);
  });

  it('fills empty days, counts rows without dates apart, and needs no late row', () => {
    const report = latenessReport(warehouse([
      { load_date: '2026-09-01', order_date: '2026-09-01' },
      { load_date: '2026-09-03', order_date: '2026-09-01' },
      { load_date: 'not a date', order_date: '2026-09-01' },
    ]), { relation: 'raw', columns, lookback: 3 });
    expect(report.histogram).toEqual([{ days: 0, rows: 1 }, { days: 1, rows: 0 }, { days: 2, rows: 1 }]);
    expect(report.invalid_rows).toBe(1);
    expect(report.missed.rows).toBe(0);
    expect(report.required_lookback).toBe(2);
  });

  it('an empty table has no lateness; unknown columns get a did-you-mean', () => {
    const empty = latenessReport(warehouse([]), { relation: 'raw', columns, lookback: 3 });
    expect(empty).toMatchObject({ rows: 0, max_days: null, required_lookback: 0, histogram: [] });
    expect(() => latenessReport(warehouse([]), { relation: 'raw', columns, lookback: 3, by: 'statuss' })).toThrow(/'statuss' is not a column of 'raw'\. Did you mean 'status'\?/);
    expect(() => latenessReport(warehouse([]), { relation: 'nope', columns, lookback: 3 })).toThrow(/not in the warehouse yet/);
  });
});
