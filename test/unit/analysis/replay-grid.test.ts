import { describe, expect, it } from 'vitest';
import { replayGrids, type ReplayGridInput } from '../../../src/analysis/replay-grid.js';

/**
 * Four nights, 09-02..09-05, the table built in full as of 09-01. Late rows:
 * one for 09-01 lands on 09-02 (1 day late), two for 09-01 land on 09-04
 * (3 days late). With lookback 1 the second landing is outside the window
 * 09-03..09-04, so 09-01 is stale from 09-04 on; with lookback 3 (the
 * required one) both are applied.
 */
const RESULT: ReplayGridInput = {
  to: '2026-09-05',
  weekly_backfill: null,
  required_lookback: 3,
  lookback: 1,
  nights: [
    { run_date: '2026-09-02', window: ['2026-09-01', '2026-09-02'], stale: [], weekly_backfill: false },
    { run_date: '2026-09-03', window: ['2026-09-02', '2026-09-03'], stale: [], weekly_backfill: false },
    { run_date: '2026-09-04', window: ['2026-09-03', '2026-09-04'], stale: ['2026-09-01'], weekly_backfill: false },
    { run_date: '2026-09-05', window: ['2026-09-04', '2026-09-05'], stale: ['2026-09-01'], weekly_backfill: false },
  ],
  with_required_lookback: {
    lookback: 3,
    nights: [
      { run_date: '2026-09-02', window: ['2026-09-01', '2026-09-02'], stale: [], weekly_backfill: false },
      { run_date: '2026-09-03', window: ['2026-09-01', '2026-09-03'], stale: [], weekly_backfill: false },
      { run_date: '2026-09-04', window: ['2026-09-01', '2026-09-04'], stale: [], weekly_backfill: false },
      { run_date: '2026-09-05', window: ['2026-09-02', '2026-09-05'], stale: [], weekly_backfill: false },
    ],
  },
  late_landings: [
    { night: '2026-09-02', partition: '2026-09-01', rows: 1 },
    { night: '2026-09-04', partition: '2026-09-01', rows: 2 },
  ],
};

describe('replayGrids: a replay result as nights x days', () => {
  it('marks each cell: the window, late rows applied inside it or missed outside it, stale days, days after the night', () => {
    const [short, required] = replayGrids(RESULT);
    expect(short!.days).toEqual(['2026-09-01', '2026-09-02', '2026-09-03', '2026-09-04', '2026-09-05']);
    expect(short!.lookback).toBe(1);
    expect(short!.required).toBe(false);
    expect(short!.rows.map((r) => r.cells)).toEqual([
      ['applied', 'window', 'future', 'future', 'future'],
      ['fresh', 'window', 'window', 'future', 'future'],
      ['missed', 'fresh', 'window', 'window', 'future'],
      ['stale', 'fresh', 'fresh', 'window', 'window'],
    ]);
    expect(short!.rows.map((r) => [r.night, r.stale, r.applied_rows, r.missed_rows])).toEqual([
      ['2026-09-02', 0, 1, 0],
      ['2026-09-03', 0, 0, 0],
      ['2026-09-04', 1, 0, 2],
      ['2026-09-05', 1, 0, 0],
    ]);
    expect(short!.rows[2]!.landed).toEqual([2, 0, 0, 0, 0]);

    expect(required!.lookback).toBe(3);
    expect(required!.required).toBe(true);
    expect(required!.days).toEqual(short!.days);
    expect(required!.rows.map((r) => r.cells)).toEqual([
      ['applied', 'window', 'future', 'future', 'future'],
      ['window', 'window', 'window', 'future', 'future'],
      ['applied', 'window', 'window', 'window', 'future'],
      ['fresh', 'window', 'window', 'window', 'window'],
    ]);
    expect(required!.rows.map((r) => [r.applied_rows, r.missed_rows])).toEqual([[1, 0], [0, 0], [2, 0], [0, 0]]);
  });

  it('one grid without a second pass; a weekly backfill night widens its window; days start at the earliest day touched', () => {
    const weekly: ReplayGridInput = {
      ...RESULT,
      weekly_backfill: 3,
      with_required_lookback: null,
      nights: RESULT.nights.map((n) => (n.run_date === '2026-09-04' ? { ...n, weekly_backfill: true, stale: [] } : n)),
      late_landings: [...RESULT.late_landings, { night: '2026-09-03', partition: '2026-08-30', rows: 1 }],
    };
    const grids = replayGrids(weekly);
    expect(grids).toHaveLength(1);
    const [grid] = grids;
    expect(grid!.days[0]).toBe('2026-08-30');
    expect(grid!.days).toHaveLength(7);
    const night4 = grid!.rows[2]!;
    // 09-04 - 3 days = 09-01: the backfill covers the landing on 09-01, so it is applied.
    expect(night4.window).toEqual(['2026-09-01', '2026-09-04']);
    expect(night4.cells).toEqual(['fresh', 'fresh', 'applied', 'window', 'window', 'window', 'future']);
    expect(grid!.rows[1]!.cells.slice(0, 2)).toEqual(['missed', 'fresh']);
  });

  it('no nights: no days', () => {
    expect(replayGrids({ ...RESULT, nights: [], with_required_lookback: null, late_landings: [] })[0]!.days).toEqual([]);
  });
});
