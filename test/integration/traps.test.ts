import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backfill, loadSession, run, stale, type Session } from '../../src/index.js';
import type { FeedRow } from '../../src/feed/generate-feed.js';
import { REPO_ROOT } from '../support/example-project.js';
import { fullRebuild } from '../support/revenue-oracle.js';
import { runCli } from '../support/run-cli.js';
import { asPlain, tableRows } from '../support/warehouse-rows.js';

/**
 * A fresh copy of an example project (its files only, never a warehouse left
 * there), at the same depth as in the repo: the traps use the root's macros.
 */
function example(name: string): { dir: string; feed: FeedRow[]; session: Session } {
  const root = mkdtempSync(join(tmpdir(), `mini-dbt-${name}-`));
  const dir = join(root, 'examples', name);
  cpSync(join(REPO_ROOT, 'macros'), join(root, 'macros'), { recursive: true });
  for (const entry of ['project.yml', 'models', 'seeds']) cpSync(join(REPO_ROOT, 'examples', name, entry), join(dir, entry), { recursive: true });
  const [, ...lines] = readFileSync(join(dir, 'seeds', 'raw_orders.csv'), 'utf8').trim().split('\n');
  const feed = lines.map((l) => {
    const [load_date, order_id, order_date, status, amount] = l.split(',');
    return { load_date: load_date!, order_id: Number(order_id), order_date: order_date!, status: status as FeedRow['status'], amount: amount! };
  });
  return { dir, feed, session: loadSession({ projectDir: dir }) };
}

async function night(session: Session, asOf: string, fullRefresh = false) {
  return run({ session, vars: { as_of: asOf }, fullRefresh, writeArtifacts: false });
}

const rowsOf = (dir: string, table: string) => tableRows(dir, table).map((r) => ({ ...r }));

describe('trap 1: adding tonight\'s rows to the day totals (upsert +=)', () => {
  it('counts the refund as another order and keeps its revenue; the right model does not', async () => {
    const { dir, feed, session } = example('trap-1-upsert-adds-tonight');
    await run({ session, command: 'seed', writeArtifacts: false });
    await night(session, '2026-09-01', true);
    for (const n of ['2026-09-02', '2026-09-03']) expect((await night(session, n)).exitCode).toBe(0);
    const truth = asPlain(fullRebuild(feed));
    expect(truth[0]).toEqual({ order_date: '2026-09-01', orders: 2, delivered_orders: 1, revenue: 10 });
    expect(rowsOf(dir, 'daily_revenue_upsert')[0]).toEqual({ order_date: '2026-09-01', orders: 3, delivered_orders: 2, revenue: 30 });
    expect(rowsOf(dir, 'daily_revenue')).toEqual(truth);
    expect(stale({ session, model: 'daily_revenue_upsert' }).stale).toEqual(['2026-09-01']);
    expect(stale({ session, model: 'daily_revenue' }).stale).toEqual([]);
    // --candidates trusts an incremental run to compute what the full refresh does: this one does not (it ignores
    // start/end), so it is compared with the full rebuild all the same; the right model is answered from its candidates.
    const trusted = stale({ session, model: 'daily_revenue_upsert', candidates: true });
    expect([trusted.stale, trusted.rebuilt_partitions]).toEqual([['2026-09-01'], null]);
    expect(stale({ session, model: 'daily_revenue', candidates: true, vars: { as_of: '2026-09-03' } })).toMatchObject({ stale: [], rebuilt_partitions: 0 });
    // Not idempotent: the same night again adds 3 September twice.
    await night(session, '2026-09-03');
    expect(rowsOf(dir, 'daily_revenue_upsert')[2]).toEqual({ order_date: '2026-09-03', orders: 2, delivered_orders: 2, revenue: 80 });
    expect(rowsOf(dir, 'daily_revenue')).toEqual(truth);
    // A backfill cannot repair it: its incremental branch ignores start/end. The dry run refuses it;
    // the backfill stages the rows, the check fails inside the publish, and nothing is written.
    const refusal = /would write partitions outside 2026-09-01\.\.2026-09-01: its incremental branch ignores the start\/end vars \(1 partition: 2026-09-03\)/;
    await expect(backfill({ session, model: 'daily_revenue_upsert', start: '2026-09-01', end: '2026-09-01', dryRun: true })).rejects.toThrow(refusal);
    const before = rowsOf(dir, 'daily_revenue_upsert');
    const refused = await backfill({ session, model: 'daily_revenue_upsert', start: '2026-09-01', end: '2026-09-01', reason: 'try' });
    expect(refused.exitCode).toBe(1); // a node failure: exit 1, as in dbt
    expect(refused.ranges[0]).toMatchObject({ status: 'error', after: null });
    expect(refused.ranges[0]!.message).toMatch(refusal);
    expect(refused.ranges[0]!.message).toMatch(/hint: nothing was written/);
    expect(rowsOf(dir, 'daily_revenue_upsert')).toEqual(before);
  });
});

describe('trap 2: a backfill with the old as-of date', () => {
  it('reproduces the old error; a backfill with everything landed fixes it (CLI)', async () => {
    const { dir, feed, session } = example('trap-2-backfill-old-as-of');
    await run({ session, command: 'seed', writeArtifacts: false });
    await night(session, '2026-09-01', true);
    for (const n of ['2026-09-02', '2026-09-03', '2026-09-04']) await night(session, n);
    const truth = asPlain(fullRebuild(feed));
    const sept1 = () => rowsOf(dir, 'daily_revenue')[0];
    expect(sept1()).toEqual({ order_date: '2026-09-01', orders: 2, delivered_orders: 2, revenue: 30 });
    expect(truth[0]).toEqual({ order_date: '2026-09-01', orders: 2, delivered_orders: 1, revenue: 10 });
    expect(stale({ session, model: 'daily_revenue' }).stale).toEqual(['2026-09-01']);

    const old = runCli(['run', '--select', 'daily_revenue', '--vars', '{start: 2026-09-01, end: 2026-09-01, as_of: 2026-09-01}', '--project-dir', dir]);
    expect(old.code).toBe(0);
    expect(old.stdout).toMatch(/wrote 1 partition 2026-09-01; as of 2026-09-01/);
    expect(sept1()).toEqual({ order_date: '2026-09-01', orders: 2, delivered_orders: 2, revenue: 30 });

    const refused = runCli(['backfill', 'daily_revenue', '--start', '2026-09-01', '--end', '2026-09-01', '--vars', '{as_of: 2026-09-01}', '--reason', 'x', '--project-dir', dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/an old as-of reproduces the old error/);

    const fixed = runCli(['backfill', 'daily_revenue', '--start', '2026-09-01', '--end', '2026-09-01', '--reason', 'refund of order 2 landed 3 days late', '--project-dir', dir]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/before: 1 row\(s\), orders 2, delivered_orders 2, revenue 30\n.*after: {2}1 row\(s\), orders 2, delivered_orders 1 \(-1\), revenue 10 \(-20\)/);
    expect(rowsOf(dir, 'daily_revenue')).toEqual(truth);
    const lateness = JSON.parse(runCli(['lateness', 'raw_orders', '--json', '--project-dir', dir]).stdout);
    expect(lateness).toMatchObject({ required_lookback: 3, missed: { lookback: 1, rows: 1 } });
  });
});

describe('trap 3: inserting without deleting', () => {
  it('append doubles the window, a unique key makes the night fail, delete+insert is harmless to rerun', async () => {
    const { dir, feed, session } = example('trap-3-insert-without-delete');
    await run({ session, command: 'seed', writeArtifacts: false });
    expect((await night(session, '2026-09-01', true)).exitCode).toBe(0);
    const keyedAfterFirst = rowsOf(dir, 'daily_revenue_append_keyed');
    const results = [];
    for (const n of ['2026-09-02', '2026-09-02', '2026-09-03']) results.push(await night(session, n));
    const status = (i: number, model: string) => results[i]!.results.find((r) => r.name === model)!;
    // The keyed append fails on the key both times night 2 runs, and the failed publish left the table as it was.
    for (const i of [0, 1]) {
      expect(status(i, 'daily_revenue_append_keyed').status).toBe('error');
      expect(status(i, 'daily_revenue_append_keyed').message).toMatch(/UNIQUE constraint failed: daily_revenue_append_keyed\.order_date/);
    }
    expect(results[0]!.exitCode).toBe(1);
    expect(status(2, 'daily_revenue_append_keyed').status).toBe('success');

    const truth = asPlain(fullRebuild(feed));
    expect(truth).toEqual([
      { order_date: '2026-09-01', orders: 3, delivered_orders: 3, revenue: 35 },
      { order_date: '2026-09-02', orders: 1, delivered_orders: 1, revenue: 30 },
      { order_date: '2026-09-03', orders: 1, delivered_orders: 1, revenue: 40 },
    ]);
    const append = rowsOf(dir, 'daily_revenue_append');
    expect(append.filter((r) => r.order_date === '2026-09-01').map((r) => r.revenue)).toEqual([30, 35, 35]);
    expect(append.filter((r) => r.order_date === '2026-09-02')).toHaveLength(3);
    expect(append.reduce((s, r) => s + Number(r.revenue), 0)).toBe(30 + 35 + 35 + 30 * 3 + 40);
    const s = stale({ session, model: 'daily_revenue_append' });
    expect(s.stale).toEqual(['2026-09-01', '2026-09-02']);
    expect(s.totals).toMatchObject({ live: { rows: 6, sums: { revenue: 190 } }, rebuilt: { rows: 2, sums: { revenue: 65 } } });
    // The fix is a full refresh: a backfill of an append model would insert the range once more.
    expect(s.backfill_command).toBe('mini-dbt run --select daily_revenue_append --full-refresh');
    await expect(backfill({ session, model: 'daily_revenue_append', start: '2026-09-01', end: '2026-09-02', reason: 'x' })).rejects.toThrow(/'append', which never deletes/);

    expect(keyedAfterFirst).toEqual([{ order_date: '2026-09-01', orders: 2, delivered_orders: 2, revenue: 30 }]);
    expect(stale({ session, model: 'daily_revenue_append_keyed' }).stale).toEqual(['2026-09-01']);

    expect(rowsOf(dir, 'daily_revenue')).toEqual(truth);
    expect(stale({ session, model: 'daily_revenue' }).stale).toEqual([]);
  });
});
