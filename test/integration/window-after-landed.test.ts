import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtExample } from '../support/built-example.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const copyOfBase = builtExample();

const WARNING = /the window .* lies after the newest .* that landed/;

describe('an incremental run whose window lies after everything that landed says so', () => {
  it('as_of in the future: one warning line, and indeed nothing changes', () => {
    const dir = copyOfBase();
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const result = runCli(['run', '-s', 'daily_revenue', '--vars', "{as_of: '2031-01-11', lookback_days: 10}", '--project-dir', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('daily_revenue: the window 2031-01-01..2031-01-11 lies after the newest order_date that landed (2026-10-31): this run changes nothing');
    expect(result.stdout.match(new RegExp(WARNING, 'g'))).toHaveLength(1);
    expect(result.stdout).toContain('[DELETE 0, INSERT 0');
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
  });

  it('the first day after the newest row is already "after"; a window that still reaches it is not', () => {
    const dir = copyOfBase();
    const after = runCli(['run', '-s', 'daily_revenue', '--vars', "{as_of: '2026-11-04', lookback_days: 3}", '--project-dir', dir]);
    expect(after.stdout).toContain('the window 2026-11-01..2026-11-04 lies after the newest order_date that landed (2026-10-31)');
    const reaching = runCli(['run', '-s', 'daily_revenue', '--vars', "{as_of: '2026-11-03', lookback_days: 3}", '--project-dir', dir]);
    expect(reaching.code).toBe(0);
    expect(reaching.stdout).not.toMatch(WARNING);
  });

  it('no warning without as_of (the window ends at what landed), nor on a full rebuild', () => {
    const dir = copyOfBase();
    const nightly = runCli(['run', '-s', 'daily_revenue', '--project-dir', dir]);
    expect(nightly.code).toBe(0);
    expect(nightly.stdout).not.toMatch(WARNING);
    const full = runCli(['run', '-s', 'daily_revenue', '--full-refresh', '--vars', "{as_of: '2031-01-11'}", '--project-dir', dir]);
    expect(full.code).toBe(0);
    expect(full.stdout).not.toMatch(WARNING);
  });
});
