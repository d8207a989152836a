import { describe, expect, it } from 'vitest';
import { rawRowsInRange, rawRowsLanded } from '../../../src/analysis/raw-read-counts.js';
import { openWarehouse, type Warehouse } from '../../../src/engine/open-warehouse.js';

/** Event and loaded-at values of every kind a raw table may hold: ISO dates, timestamps with offsets, numbers, blobs, NULLs. */
const EVENTS: unknown[] = [
  '2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04', '2026-09-02 23:59:59', '2026-09-03T01:30:00+05:00',
  '2026-09-01T22:00:00-04:00', '2026-08-31', '2026-09-05', 2461287.5, 2461286, null, Buffer.from('2026-09-02'), 'not a date',
  // around the inner blocks of long ranges: days a month lacks (date() moves them into the next month), the
  // extremes of the time and offset, texts between years and texts date() reads as numbers or times ('now' is
  // today's date to date(), and not counted: no seek reaches it)
  '2026-02-31', '2026-02-29 24:00-14:59', '2026-09-30T00:00+14:59', '2026-12-31 24:00', '2027-01-01T00:00+14:00',
  '2026-13-01', '2026-12-32', '2026-9-1', '2026.5', '2026e0', '20261', '2027', '12:30', '2026-09-0', '2026-',
];
const LOADED: unknown[] = ['2026-09-01', '2026-09-03', '2026-09-05', '2026-09-04 08:00', null, 20260902, Buffer.from('x')];

function table(indexed: boolean, eventType: string, loadedType: string) {
  const db = openWarehouse(':memory:');
  db.exec(`create table raw (e ${eventType}, l ${loadedType})`);
  const insert = db.prepare('insert into raw values (?, ?)');
  // A TEXT column stores a number as its text, which date() would read as a Julian day: event
  // times kept as text are ISO-8601 (see rawRowsInRange), so numbers go to untyped and numeric columns only.
  const events = eventType === 'TEXT' ? EVENTS.filter((e) => typeof e !== 'number') : EVENTS;
  for (const e of events) for (const l of LOADED) insert.run(e, l);
  if (indexed) db.exec('create index raw_e on raw (e, l); create index raw_l on raw (l)');
  return db;
}

/** The plain full-scan definitions the seekable queries must agree with. */
function oracle(db: Warehouse, range: { start: string; end: string }, asOf: string | null) {
  const landed = asOf === null ? '1 = 1' : 'cast(l as text) <= @asOf';
  const p = asOf === null ? {} : { asOf };
  return {
    inRange: Number(db.value(`select count(*) from raw where coalesce(date(e), cast(e as text)) between @start and @end and ${landed}`, { ...range, ...p })),
    landed: Number(db.value(`select count(*) from raw where ${landed}`, p)),
  };
}

describe('raw read counts of a backfill', () => {
  for (const indexed of [true, false]) {
    for (const [eventType, loadedType] of [['TEXT', 'TEXT'], ['', ''], ['NUMERIC', 'INTEGER']]) {
      it(`equal the full-scan counts (${indexed ? 'indexed' : 'no index'}, event ${eventType || 'no type'}, loaded_at ${loadedType || 'no type'})`, () => {
        const db = table(indexed, eventType!, loadedType!);
        for (const range of [
          { start: '2026-09-02', end: '2026-09-03' }, { start: '2026-09-01', end: '2026-09-01' }, { start: '2026-08-01', end: '2026-12-31' }, { start: '2027-01-01', end: '2027-01-02' },
          // long enough to have inner blocks, across years, and with ends on the days the texts above move to or from
          { start: '2025-12-20', end: '2027-01-10' }, { start: '2026-02-27', end: '2026-03-06' }, { start: '2026-03-01', end: '2026-09-30' }, { start: '2026-03-02', end: '2026-10-01' },
          { start: '2026-09-01', end: '2026-09-05' }, { start: '2026-08-30', end: '2026-09-04' }, { start: '2026-12-28', end: '2027-01-05' }, { start: '2026-01-01', end: '2026-03-03' },
          { start: '2026-01-01', end: '2026-03-01' }, { start: '2026-01-10', end: '2026-03-02' }, { start: '2026-09-30', end: '2026-12-31' }, { start: '2026-03-04', end: '2026-05-01' },
        ]) {
          for (const asOf of [null, '2026-09-03', '2026-09-04', '2020-01-01']) {
            const want = oracle(db, range, asOf);
            expect(rawRowsInRange(db, 'raw', 'e', 'l', range, asOf), JSON.stringify({ range, asOf })).toBe(want.inRange);
            expect(rawRowsLanded(db, 'raw', 'l', asOf), JSON.stringify({ asOf })).toBe(want.landed);
          }
        }
      });
    }
  }

  it('seeks the indexes instead of scanning the table', () => {
    const db = table(true, 'TEXT', 'TEXT');
    const plans: string[] = [];
    const value = db.value.bind(db);
    db.value = ((sql: string, ...params: unknown[]) => {
      if (/^select \(?count\(\*\) from "raw" where|^select \(select count/.test(sql)) plans.push(...db.all<{ detail: string }>(`explain query plan ${sql}`, ...params).map((r) => r.detail));
      return value(sql, ...params);
    }) as typeof db.value;
    rawRowsInRange(db, 'raw', 'e', 'l', { start: '2026-09-02', end: '2026-09-03' }, '2026-09-04');
    // a long range: its inner blocks counted by the index alone, the rest with the exact test, both seeks
    rawRowsInRange(db, 'raw', 'e', 'l', { start: '2025-12-20', end: '2027-01-10' }, '2026-09-04');
    rawRowsLanded(db, 'raw', 'l', '2026-09-04');
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.filter((d) => /^SCAN raw\b/.test(d))).toEqual([]);
    expect(plans.some((d) => /SEARCH raw USING COVERING INDEX raw_e/.test(d))).toBe(true);
    expect(plans.some((d) => /SEARCH raw USING COVERING INDEX raw_l/.test(d))).toBe(true);
  });
});
