import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession, run, type Session } from '../../src/index.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import { lateRowsLine } from '../../src/cli/late-rows-line.js';
import { lateRowsQuery } from '../../src/execute/late-rows-not-applied.js';
import { openWarehouse } from '../../src/engine/open-warehouse.js';
import { LATE_ORDER_ROWS, LOOKBACK, lateOrdersProject } from '../support/late-orders-project.js';
import { runCli } from '../support/run-cli.js';

const must = async (p: ReturnType<typeof run>) => {
  const r = await p;
  if (r.exitCode !== 0) throw new Error(r.results.map((x) => x.message).join('; '));
  return r;
};

/** Plain arithmetic over the rows: what night `night` leaves behind when the night before ran. */
function oracle(night: string, after: string, windowStart: string) {
  const rows = LATE_ORDER_ROWS.filter((r) => r.load_date > after && r.load_date <= night && r.order_date < windowStart);
  return { rows: rows.length, ids: rows.map((r) => r.order_id).sort((a, b) => a - b), days: [...new Set(rows.map((r) => r.order_date))].sort() };
}

async function seeded(): Promise<{ dir: string; session: Session }> {
  const dir = lateOrdersProject();
  const session = loadSession({ projectDir: dir });
  await must(run({ session, command: 'seed', writeArtifacts: false }));
  await must(run({ session, fullRefresh: true, vars: { as_of: '2026-01-01' }, writeArtifacts: false }));
  return { dir, session };
}

describe('an incremental run says which late rows it did not apply', () => {
  it('each night reports exactly the rows landed since the night before for days before its window (checked against the rows)', async () => {
    const { session } = await seeded();
    for (const night of dateRange('2026-01-02', '2026-01-06')) {
      const result = await must(run({ session, vars: { as_of: night }, writeArtifacts: false }));
      const late = result.results[0]!.lateRowsNotApplied!;
      const windowStart = addDays(night, -LOOKBACK);
      const expected = oracle(night, addDays(night, -1), windowStart);
      // The window as written: the days from R-2 to R that have rows landed by R.
      const written = [...new Set(LATE_ORDER_ROWS.filter((r) => r.load_date <= night && r.order_date >= windowStart && r.order_date <= night).map((r) => r.order_date))].sort();
      expect(late).toMatchObject({ rows: expected.rows, landed_after: addDays(night, -1), landed_by: night, window: [written[0], written[written.length - 1]] });
      expect(late.partitions.map((p) => p.partition)).toEqual(expected.days);
      expect(late.sample.map((s) => s.id)).toEqual(expected.ids);
      if (expected.rows === 0) expect(lateRowsLine(late)).toBeUndefined();
    }
  });

  it('the fixture has one miss: the night of 2026-01-05, orders 1 and 2 for 2026-01-01', () => {
    expect(oracle('2026-01-05', '2026-01-04', '2026-01-03')).toEqual({ rows: 2, ids: [1, 2], days: ['2026-01-01'] });
    expect(oracle('2026-01-04', '2026-01-03', '2026-01-02').rows).toBe(0); // order 3's refund is 2 days late: inside the window
  });

  it('after skipped nights it counts everything landed since the previous run, and says so', async () => {
    const { session } = await seeded();
    await must(run({ session, vars: { as_of: '2026-01-02' }, writeArtifacts: false }));
    const result = await must(run({ session, vars: { as_of: '2026-01-06' }, writeArtifacts: false }));
    const late = result.results[0]!.lateRowsNotApplied!;
    const expected = oracle('2026-01-06', '2026-01-02', '2026-01-04');
    expect(expected).toEqual({ rows: 4, ids: [1, 2, 3, 4], days: ['2026-01-01', '2026-01-02', '2026-01-03'] });
    expect(late.rows).toBe(expected.rows);
    expect(lateRowsLine(late)).toBe("late rows not applied: 4 rows landed since the previous run's as-of 2026-01-02 for 2026-01-01, 2026-01-02 and 2026-01-03, outside the window 2026-01-04..2026-01-06 (orders 1, 2, 3 and 1 more)");
  });

  it('a full rebuild and a backfill report nothing', async () => {
    const { session } = await seeded();
    const full = await must(run({ session, fullRefresh: true, vars: { as_of: '2026-01-05' }, writeArtifacts: false }));
    expect(full.results[0]!.lateRowsNotApplied).toBeUndefined();
    const backfill = await must(run({ session, vars: { as_of: '2026-01-06', start: '2026-01-05', end: '2026-01-06' }, writeArtifacts: false }));
    expect(backfill.results[0]!.lateRowsNotApplied).toBeUndefined();
  });

  it('the check is one query a night that seeks the loaded-at index (not a walk of the history)', async () => {
    const { dir, session } = await seeded();
    const db = openWarehouse(join(dir, 'warehouse.db'), { readonly: true });
    try {
      const { sql } = lateRowsQuery(db, session.manifest.seeds.get('raw_orders')!);
      const plan = (db.prepare(`explain query plan ${sql}`).all({ after: '2026-01-04', asOf: '2026-01-05', start: '2026-01-03' }) as { detail: string }[]).map((r) => r.detail);
      expect(plan.some((d) => /SEARCH .*raw_orders USING INDEX \S+ \(load_date>\? AND load_date<\?\)/.test(d))).toBe(true);
      expect(plan.some((d) => /SCAN .*raw_orders\b/.test(d))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('a model whose raw input declares no event_time claims nothing (no facts, no line)', async () => {
    const dir = lateOrdersProject();
    writeFileSync(join(dir, 'seeds/raw_orders.yml'), readFileSync(join(dir, 'seeds/raw_orders.yml'), 'utf8').replace('      event_time: order_date\n', ''));
    const session = loadSession({ projectDir: dir });
    await must(run({ session, command: 'seed', writeArtifacts: false }));
    await must(run({ session, fullRefresh: true, vars: { as_of: '2026-01-04' }, writeArtifacts: false }));
    const night = await must(run({ session, vars: { as_of: '2026-01-05' }, writeArtifacts: false }));
    expect(night.results[0]!.lateRowsNotApplied).toBeUndefined();
  });

  it('the CLI prints one line after the result, and run_results.json carries the same facts', async () => {
    const { dir, session } = await seeded();
    for (const night of dateRange('2026-01-02', '2026-01-04')) await must(run({ session, vars: { as_of: night }, writeArtifacts: false }));
    const quiet = runCli(['run', '--vars', '{as_of: 2026-01-05}', '--project-dir', dir, '--database', join(dir, 'warehouse.db')]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toContain('late rows not applied: 2 rows landed tonight for 2026-01-01, outside the window 2026-01-03..2026-01-05 (orders 1, 2)');
    expect(quiet.stdout.match(/late rows not applied/g)).toHaveLength(1);
    const results = JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: { mini_dbt: Record<string, unknown> }[] };
    expect(results.results[0]!.mini_dbt.late_rows_not_applied).toMatchObject({
      rows: 2, landed_after: '2026-01-04', landed_by: '2026-01-05', window: ['2026-01-03', '2026-01-05'],
      partitions: [{ partition: '2026-01-01', rows: 2 }],
      sample: [{ source: 'raw_orders', id_column: 'order_id', id: 1, partition: '2026-01-01', loaded_at: '2026-01-05' }, { id: 2 }],
    });
    const next = runCli(['run', '--vars', '{as_of: 2026-01-06}', '--project-dir', dir]);
    expect(next.code).toBe(0);
    expect(next.stdout).not.toContain('late rows not applied');
    const after = JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: { mini_dbt: Record<string, unknown> }[] };
    expect(after.results[0]!.mini_dbt.late_rows_not_applied).toMatchObject({ rows: 0, partitions: [] });
  });
});
