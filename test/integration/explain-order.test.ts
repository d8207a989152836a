import { describe, expect, it } from 'vitest';
import { loadSession, run } from '../../src/index.js';
import { explainOrder } from '../../src/api/explain-order.js';
import { renderExplainOrder } from '../../src/cli/explain-order-command.js';
import { dateRange } from '../../src/feed/iso-date.js';
import { LATE_ORDER_ROWS, lateOrdersProject } from '../support/late-orders-project.js';
import { runCli } from '../support/run-cli.js';

/** The fixture after a full build as of 2026-01-01 and nightly runs 2026-01-02..2026-01-06 (lookback 2). */
async function afterNights(): Promise<string> {
  const dir = lateOrdersProject();
  const session = loadSession({ projectDir: dir });
  for (const r of [
    await run({ session, command: 'seed', writeArtifacts: false }),
    await run({ session, fullRefresh: true, vars: { as_of: '2026-01-01' }, writeArtifacts: false }),
  ]) expect(r.exitCode).toBe(0);
  for (const night of dateRange('2026-01-02', '2026-01-06')) expect((await run({ session, vars: { as_of: night }, writeArtifacts: false })).exitCode).toBe(0);
  return dir;
}

describe('explain-order follows one order through every night', async () => {
  const dir = await afterNights();

  it('a refund 4 days late with a lookback of 2: applied never, the table counts the delivered version, a full rebuild the refund', () => {
    const r = explainOrder({ projectDir: dir, orderId: '1' });
    expect(r).toMatchObject({ order_id: 1, source: 'raw_orders', id_column: 'order_id', model: 'daily_revenue', partition: '2026-01-01', stale: true });
    // The versions are the fixture's rows of order 1, in landing order.
    const rows = LATE_ORDER_ROWS.filter((x) => x.order_id === 1);
    expect(r.versions.map((v) => [v.loaded_at, v.values.status, v.days_late])).toEqual(rows.map((x) => [x.load_date, x.status, 4 * (x.status === 'refunded' ? 1 : 0)]));
    // Runs that rewrote 2026-01-01: the full build as of 01-01 and the nights whose window R-2..R reaches it (01-02, 01-03).
    expect(r.runs).toHaveLength(6);
    expect(r.runs.filter((x) => x.covered).map((x) => x.as_of)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(r.versions[0]!.applied_by?.as_of).toBe('2026-01-01');
    expect(r.versions[1]!.applied_by).toBeNull();
    expect(r.versions[1]!.first_run_after).toMatchObject({ as_of: '2026-01-05', covered: false, window_start: '2026-01-03', window_end: '2026-01-05' });
    expect(r.table_counts).toMatchObject({ version: 1, run: { as_of: '2026-01-03' } });
    expect(r.full_rebuild_counts).toEqual({ version: 2, as_of: '2026-01-06' });
    const text = renderExplainOrder(r).join('\n');
    expect(text).toContain('NOT applied: the run as of 2026-01-05 rewrote 2026-01-03..2026-01-05, and no run since rewrote 2026-01-01 (it landed 4 days late)');
    expect(text).toContain('so 2026-01-01 is stale');
    expect(text).toContain('fix: mini-dbt backfill daily_revenue --start 2026-01-01 --end 2026-01-01');
  });

  it('a refund 2 days late lands inside the window: applied, and the table agrees with a full rebuild', () => {
    const r = explainOrder({ projectDir: dir, orderId: '3', model: 'daily_revenue' });
    expect(r.stale).toBe(false);
    expect(r.versions.map((v) => v.applied_by?.as_of)).toEqual(['2026-01-02', '2026-01-04']);
    expect(r.table_counts.version).toBe(2);
    expect(r.full_rebuild_counts.version).toBe(2);
    expect(renderExplainOrder(r).join('\n')).toContain('the table agrees with a full rebuild for order_id 3');
  });

  it('an unknown id names the ids on either side and the range; a word among numbers names the range', () => {
    const ids = LATE_ORDER_ROWS.map((x) => x.order_id);
    expect(() => explainOrder({ projectDir: dir, orderId: '99' })).toThrow(`raw_orders has no order_id 99: the closest is ${Math.max(...ids)} (order_id runs from ${Math.min(...ids)} to ${Math.max(...ids)})`);
    expect(() => explainOrder({ projectDir: dir, orderId: 'abc' })).toThrow(`raw_orders has no order_id abc: order_id is a number from ${Math.min(...ids)} to ${Math.max(...ids)}`);
    expect(() => explainOrder({ projectDir: dir, orderId: '1', idColumn: 'order_idd' })).toThrow("raw_orders has no column 'order_idd'. Did you mean 'order_id'?");
    expect(() => explainOrder({ projectDir: dir, orderId: '1', model: 'daily_revenu' })).toThrow("Did you mean 'daily_revenue'?");
  });

  it('the CLI: text by default, --json for scripts, exit 2 on an unknown id', () => {
    const text = runCli(['explain-order', '2', '--project-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('order_id 2 in raw_orders: order_date 2026-01-01, so it counts in partition 2026-01-01 of daily_revenue');
    const json = runCli(['explain-order', '2', '--json', '--project-dir', dir]);
    expect(JSON.parse(json.stdout)).toMatchObject({ order_id: 2, stale: true, table_counts: { version: 1 }, full_rebuild_counts: { version: 2 } });
    const unknown = runCli(['explain-order', '0', '--project-dir', dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('raw_orders has no order_id 0: the closest is 1');
  });
});
