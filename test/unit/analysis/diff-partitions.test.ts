import { openWarehouse } from '../../../src/engine/open-warehouse.js';
import { describe, expect, it } from 'vitest';
import { diffPartitions, WHOLE_TABLE } from '../../../src/analysis/diff-partitions.js';
import { partitionTotals } from '../../../src/analysis/range-totals.js';

function db() {
  const d = openWarehouse(':memory:');
  d.exec(`
    create table live (day text, orders integer, revenue real);
    create temp table truth (day text, orders integer, revenue real);
    insert into live values ('d1', 2, 10.5), ('d2', 1, 3), ('d3', 4, 8), ('d3', 4, 8), ('d5', 1, 1);
    insert into truth values ('d1', 2, 10.5), ('d2', 1, 2.99), ('d3', 4, 8), ('d4', 1, 1), ('d5', 1, 1);
  `);
  return d;
}
const cols = ['day', 'orders', 'revenue'];

describe('diffPartitions', () => {
  it('finds changed, doubled and missing partitions, and leaves equal ones out', () => {
    const diff = diffPartitions(db(), { relation: 'live', columns: cols }, { relation: 'temp.truth', columns: cols }, 'day');
    expect(diff.stale).toEqual(['d2', 'd3', 'd4']);
    expect(diff.partitionsChecked).toBe(5);
    expect(diff.details.find((d) => d.partition === 'd3')).toEqual({ partition: 'd3', live: [{ day: 'd3', orders: 4, revenue: 8 }, { day: 'd3', orders: 4, revenue: 8 }], rebuilt: [{ day: 'd3', orders: 4, revenue: 8 }] });
    expect(diff.details.find((d) => d.partition === 'd4')!.live).toEqual([]);
  });

  it('compares the common columns and reports schema drift', () => {
    const d = db();
    d.exec('alter table live add column note text');
    const diff = diffPartitions(d, { relation: 'live', columns: [...cols, 'note'] }, { relation: 'temp.truth', columns: cols }, 'day');
    expect(diff.onlyLive).toEqual(['note']);
    expect(diff.columns).toEqual(cols);
  });

  it('without a partition column the whole table is one partition', () => {
    const diff = diffPartitions(db(), { relation: 'live', columns: cols }, { relation: 'temp.truth', columns: cols }, undefined, { detailPartitions: 0 });
    expect(diff.stale).toEqual([WHOLE_TABLE]);
    expect(diff.details).toEqual([]);
  });

  it('partitionTotals sums numeric columns of a range or a list of partitions, values bound', () => {
    const d = db();
    expect(partitionTotals(d, 'live', cols, 'day', { start: 'd2', end: 'd3' })).toEqual({ rows: 3, sums: { orders: 9, revenue: 19 } });
    expect(partitionTotals(d, 'live', cols, 'day', { partitions: ['d1', "d5'; drop table live; --"] })).toEqual({ rows: 1, sums: { orders: 2, revenue: 10.5 } });
    expect(partitionTotals(d, 'live', cols, 'day', { partitions: [] })).toEqual({ rows: 0, sums: {} });
  });
});
