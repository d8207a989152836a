import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { nightlyPlaybook, PLAYBOOK_ROWS } from '../support/playbook-project.js';
import { runCli } from '../support/run-cli.js';
import { copyProject } from '../support/nightly-project.js';

/** Order 6's late version is a negative delivered amount: the audit below fails on 2026-01-05, the last of the three stale ranges. */
const NEGATIVE_ROWS = PLAYBOOK_ROWS.map((r) => (r.order_id === 6 && r.status === 'refunded' ? { ...r, status: 'delivered', amount: -60 } : r));
const NO_NEGATIVE = { 'tests/no_negative_revenue.sql': "select * from {{ ref('daily_revenue') }} where revenue < 0\n" };

/** The CLI's output without the time each line starts with (printed when stdout is not a terminal). */
const cli = (args: string[]) => {
  const r = runCli(args);
  return { ...r, stdout: r.stdout.replace(/^\d{2}:\d{2}:\d{2} {2}/gm, '') };
};

function runs(dir: string): Record<string, unknown>[] {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return db.prepare('select command, reason, command_line from _mini_dbt_runs order by started_at').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('the backfill playbook through the CLI (hand-made feed; CLI output and --json)', () => {
  let nightly: string;
  let failing: string;
  beforeAll(async () => {
    ({ dir: nightly } = await nightlyPlaybook(PLAYBOOK_ROWS, NO_NEGATIVE));
    ({ dir: failing } = await nightlyPlaybook(NEGATIVE_ROWS, NO_NEGATIVE));
  });

  it('backfill --stale --dry-run prints the change per partition and in total, every check, the cost and its reason', () => {
    const r = cli(['backfill', 'daily_revenue', '--stale', '--dry-run', '--project-dir', nightly]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('predicted change (live -> after the backfill): 3 of 3 partition(s) change');
    expect(r.stdout).toContain('  2026-01-01  revenue 30 -> 20 (-10)');
    expect(r.stdout).toContain('  2026-01-05  revenue 60 -> 0 (-60)');
    expect(r.stdout).toContain('total change over them: rows 3 -> 3, orders 4 -> 4 (+0), revenue 130 -> 20 (-110)');
    expect(r.stdout).toMatch(/checks and audits \(one transaction for all 3 ranges\):\n {2}PASS order_date not null\n {2}PASS order_date unique\n {2}PASS order_date within the 3 ranges in 2026-01-01\.\.2026-01-05\n {2}PLANNED audit no_negative_revenue \(runs inside the publish\)/);
    expect(r.stdout).toContain('will rewrite 3 partition(s) in 3 of 3 range(s), reading 7 raw row(s) of the 14 a full rebuild reads (50.0%)');
    expect(r.stdout).toContain('why: the 3 ranges are 3 of the 10 day(s) of history (30%): a large part of the history; it reads 50% of the raw rows');
    const json = JSON.parse(cli(['backfill', 'daily_revenue', '--stale', '--dry-run', '--json', '--project-dir', nightly]).stdout);
    expect(json.changes.totals).toEqual({ live: { rows: 3, sums: { orders: 4, revenue: 130 } }, after: { rows: 3, sums: { orders: 4, revenue: 20 } } });
    expect(json.cost).toMatchObject({ rawRows: 7, fullRebuildRawRows: 14, rangeDays: 3, historyDays: 10 });
    expect(json.checks.map((c: { status: string }) => c.status)).toEqual(['pass', 'pass', 'pass', 'planned']);
  });

  it('a multi-range backfill failing in its last range: FAIL on the audit, nothing published, --json says the same', () => {
    const dir = copyProject(failing);
    const r = cli(['backfill', 'daily_revenue', '--stale', '--reason', 'fix refunds', '--project-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ {2}PASS order_date within the 3 ranges in 2026-01-01\.\.2026-01-05\n {2}FAIL audit no_negative_revenue/);
    expect(r.stdout).toContain('Backfill failed: nothing was published (all 3 ranges are one transaction); every partition is exactly as it was');
    const json = JSON.parse(cli(['backfill', 'daily_revenue', '--stale', '--reason', 'fix refunds', '--json', '--project-dir', dir]).stdout);
    expect(json.checks).toEqual([
      { name: 'order_date not null', status: 'pass' },
      { name: 'order_date unique', status: 'pass' },
      { name: 'order_date within the 3 ranges in 2026-01-01..2026-01-05', status: 'pass' },
      { name: 'audit no_negative_revenue', status: 'fail' },
    ]);
    expect(json.invocation_ids).toHaveLength(1);
  });

  it('backfill --keys: the orders\' days, every check PASS, recorded with its reason', () => {
    const dir = copyProject(nightly);
    const r = cli(['backfill', 'daily_revenue', '--keys', '1,6', '--key-column', 'order_id', '--reason', 'orders 1 and 6 refunded', '--project-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('keys: order_id in raw_orders: 1 (2026-01-01), 6 (2026-01-05) -> 2 partition(s)');
    expect(r.stdout).toMatch(/ {2}PASS order_date within the 2 ranges in 2026-01-01\.\.2026-01-05\n {2}PASS audit no_negative_revenue/);
    expect(r.stdout).toContain('rewrote 2 partition(s) in 2 of 2 range(s)');
    expect(runs(dir).at(-1)).toMatchObject({ command: 'backfill', reason: 'orders 1 and 6 refunded' });
    const h = cli(['history', 'daily_revenue', '--partition', '2026-01-05', '--project-dir', dir]);
    expect(h.stdout).toMatch(/orders 1 and 6 refunded/);
  });

  it('run --vars with start/end records a reason: --reason, else (in a script) a default saying so, and one line about --reason', () => {
    const dir = copyProject(nightly);
    const given = cli(['run', '-s', 'daily_revenue', '--vars', '{start: 2026-01-03, end: 2026-01-03}', '--reason', 'order 4 refunded', '--project-dir', dir]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).not.toContain('--reason "..." records why');
    const script = cli(['run', '-s', 'daily_revenue', '--vars', '{start: 2026-01-05, end: 2026-01-05}', '--project-dir', dir]);
    expect(script.code, script.stderr).toBe(0);
    expect(script.stdout).toContain('a run with start/end vars rewrites 2026-01-05..2026-01-05 (a backfill); recorded as "run --vars start/end (no --reason given)": --reason "..." records why');
    expect(runs(dir).slice(-2).map((x) => x.reason)).toEqual(['order 4 refunded', 'run --vars start/end (no --reason given)']);
    const h = cli(['history', 'daily_revenue', '--partition', '2026-01-03', '--project-dir', dir]);
    expect(h.stdout).toContain('order 4 refunded');
    // A nightly run (no start/end) in a script: nothing asked, nothing said.
    const nightlyRun = cli(['run', '-s', 'daily_revenue', '--vars', '{as_of: 2026-01-10}', '--project-dir', dir]);
    expect(nightlyRun.stdout).not.toContain('--reason');
  });

  it('stale prints the recent days not final yet and when each month is final (--json too)', () => {
    const r = cli(['stale', 'daily_revenue', '--fast', '--project-dir', nightly]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('not final yet: 2026-01-06..2026-01-10, each until its day + 5 (2026-01-06 until 2026-01-11, ..., 2026-01-10 until 2026-01-15); rows land up to 5 day(s) late in raw_orders (the longest lateness landed by 2026-01-10)');
    expect(r.stdout).toContain('  2026-01 is not final until 2026-02-05');
    const json = JSON.parse(cli(['stale', 'daily_revenue', '--fast', '--json', '--vars', '{as_of: 2026-01-07}', '--project-dir', nightly]).stdout);
    expect(json.not_final).toMatchObject({ as_of: '2026-01-07', longest_lateness_days: 5, months: [{ month: '2026-01', final_after: '2026-02-05' }] });
    expect(json.not_final.partitions[0]).toEqual({ partition: '2026-01-03', final_after: '2026-01-08' });
  });
});
