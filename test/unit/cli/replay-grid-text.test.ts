import { describe, expect, it } from 'vitest';
import { replayGrids, type ReplayGridInput } from '../../../src/analysis/replay-grid.js';
import { replayGridText } from '../../../src/cli/replay-grid-text.js';
import { setOutput } from '../../../src/cli/terminal.js';
import { addDays, dateRange } from '../../../src/feed/iso-date.js';

const night = (run_date: string, window: [string, string], stale: string[] = []) => ({ run_date, window, stale, weekly_backfill: false });

// 09-02..09-04; a row for 09-01 lands 09-04, outside lookback 1's window and inside lookback 3's.
const SMALL: ReplayGridInput = {
  to: '2026-09-04',
  weekly_backfill: null,
  required_lookback: 3,
  lookback: 1,
  nights: [night('2026-09-02', ['2026-09-01', '2026-09-02']), night('2026-09-03', ['2026-09-02', '2026-09-03']), night('2026-09-04', ['2026-09-03', '2026-09-04'], ['2026-09-01'])],
  with_required_lookback: { lookback: 3, nights: [night('2026-09-02', ['2026-09-01', '2026-09-02']), night('2026-09-03', ['2026-09-01', '2026-09-03']), night('2026-09-04', ['2026-09-01', '2026-09-04'])] },
  late_landings: [{ night: '2026-09-04', partition: '2026-09-01', rows: 1 }],
};

describe('replayGridText: the grids in the terminal, one character a cell', () => {
  it('draws both lookbacks side by side with the stale count after each row, readable without colors', () => {
    expect(replayGridText(replayGrids(SMALL))).toEqual([
      '      lookback 1  lookback 3 (required)',
      'night 1234   #    1234   #',
      '09-02 ░░     0    ░░     0',
      '09-03 ·░░    0    ░░░    0',
      '09-04 X·░░   1    +░░░   0',
      '',
      '░ rewritten that night (the window)   · equals a full rebuild as of that night',
      '+ a late row landed inside the window: applied   X landed outside it: missed',
      '# stale: differs from a full rebuild as of that night; after each row: how many',
    ]);
  });

  it('colours only when the output has them (a terminal, or --use-colors): the characters stay the same', () => {
    setOutput({ useColors: true });
    try {
      const colored = replayGridText(replayGrids(SMALL));
      expect(colored.join('\n')).toContain('\u001b[');
      // eslint-disable-next-line no-control-regex
      expect(colored.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual((setOutput({ useColors: false }), replayGridText(replayGrids(SMALL))));
    } finally {
      setOutput({ useColors: undefined });
    }
  });

  it('two months that do not fit the width: a block per month, each with the nights that reach its days', () => {
    const nights = dateRange('2026-09-02', '2026-10-31');
    const grids = replayGrids({
      to: '2026-10-31', weekly_backfill: null, required_lookback: 11, lookback: 3, late_landings: [],
      nights: nights.map((n) => night(n, [addDays(n, -3) < '2026-09-01' ? '2026-09-01' : addDays(n, -3), n])),
      with_required_lookback: { lookback: 11, nights: nights.map((n) => night(n, [addDays(n, -11) < '2026-09-01' ? '2026-09-01' : addDays(n, -11), n])) },
    });
    expect(grids[0]!.days).toHaveLength(61);
    const lines = replayGridText(grids, { width: 80 });
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    const rows = lines.filter((l) => /^\d\d-\d\d /.test(l));
    // September's block: every night (60); October's: the nights from 10-01 (31).
    expect(rows).toHaveLength(60 + 31);
    expect(lines.filter((l) => l.startsWith('days of '))).toEqual(['days of 2026-09', 'days of 2026-10']);
    expect(rows[0]).toBe(`09-02 ░░${' '.repeat(28)}   0  ░░${' '.repeat(28)}   0`);
    // Wide enough: one block.
    expect(replayGridText(grids, { width: 160 }).filter((l) => /^\d\d-\d\d /.test(l))).toHaveLength(60);
  });
});
