import { describe, expect, it } from 'vitest';
import type { FeedRow } from '../../src/feed/generate-feed.js';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * A hand-made feed, 09-01..09-06: order 1 (09-01) is refunded on 09-05, 4 days
 * late; order 2 (09-02) lands on 09-03, 1 day late; orders 3-6 land on their day.
 * With the project's lookback 3, night 09-05's window is 09-02..09-05: the
 * refund is missed and 09-01 stays stale; with lookback 4 (the required one)
 * it is applied. Day 09-02 has no row before 09-03, so night 09-02 rewrites
 * 09-01 only.
 */
const row = (load_date: string, order_id: number, order_date: string, status: FeedRow['status'] = 'delivered'): FeedRow => ({ load_date, order_id, order_date, status, amount: '10.00' });
const FEED: FeedRow[] = [
  row('2026-09-01', 1, '2026-09-01'),
  row('2026-09-03', 2, '2026-09-02'),
  row('2026-09-03', 3, '2026-09-03'),
  row('2026-09-04', 4, '2026-09-04'),
  row('2026-09-05', 1, '2026-09-01', 'refunded'),
  row('2026-09-05', 5, '2026-09-05'),
  row('2026-09-06', 6, '2026-09-06'),
];

describe('replay --grid through the CLI', () => {
  const dir = exampleProject(FEED);

  it('draws lookback 3 and the required lookback side by side, one character a day, and a legend', () => {
    expect(runCli(['seed', '--project-dir', dir]).code).toBe(0);
    const r = runCli(['replay', 'daily_revenue', '--from', '2026-09-02', '--to', '2026-09-06', '--grid', '--project-dir', dir]);
    expect(r.code).toBe(0);
    const grid = r.stdout.split('\n').filter((l) => /^09-0\d /.test(l));
    expect(grid).toEqual([
      '09-02 ░·       0  ░·       0',
      '09-03 ░+░      0  ░+░      0',
      '09-04 ░░░░     0  ░░░░     0',
      '09-05 X░░░░    1  +░░░░    0',
      '09-06 #·░░░░   1  ·░░░░░   0',
    ]);
    expect(r.stdout).toContain('      lookback 3  lookback 4 (required)');
    expect(r.stdout).toContain('X landed outside it: missed');
    expect(r.stdout).not.toContain('\u001b[');
    // The per-night bars are replaced by the grid; the summary follows it.
    expect(r.stdout).not.toContain('night        stale');
    expect(r.stdout).toContain('worst night: 2026-09-05 with 1 stale partition(s): 2026-09-01');
  });

  it('--compare-lookback picks the second pass; --json carries the grids', () => {
    const r = runCli(['replay', 'daily_revenue', '--from', '2026-09-02', '--to', '2026-09-06', '--grid', '--compare-lookback', '2', '--json', '--project-dir', dir]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.with_required_lookback.lookback).toBe(2);
    expect(json.late_landings).toEqual([
      { night: '2026-09-03', partition: '2026-09-02', rows: 1 },
      { night: '2026-09-05', partition: '2026-09-01', rows: 1 },
    ]);
    expect(json.grids.map((g: { lookback: number; required: boolean }) => [g.lookback, g.required])).toEqual([[3, false], [2, false]]);
    expect(json.grids[1].rows[3]).toMatchObject({ night: '2026-09-05', window: ['2026-09-03', '2026-09-05'], stale: 1, missed_rows: 1, cells: ['missed', 'fresh', 'window', 'window', 'window', 'future'] });
    expect(runCli(['replay', 'daily_revenue', '--from', '2026-09-02', '--to', '2026-09-06', '--compare-lookback', 'x', '--project-dir', dir]).code).toBe(2);
  });
});
