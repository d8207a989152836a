/**
 * `stale --candidates` on both engines: after a full build as of 2026-10-20
 * and eleven nights with lookback 3, the exact answer from the partitions the
 * run ledger cannot vouch for equals the full comparison's, and it rebuilt
 * fewer partitions than the table holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stale } from '../../src/index.js';
import { describePg, freshPgDatabase, type PgTestTarget } from '../support/pg-test-database.js';
import { runNightly, toolkitExample, type ToolkitEngine, type ToolkitExample } from '../support/toolkit-example.js';

function candidatesMatchTheFullComparison(engine: () => ToolkitEngine): void {
  let example: ToolkitExample;
  beforeAll(async () => {
    example = toolkitExample(engine());
    await runNightly(example, { from: '2026-10-21', to: '2026-10-31', lookback: 3 });
  }, 120_000);

  it('the same stale partitions, rows and totals as the full comparison, from fewer rebuilt partitions', () => {
    const vars = { as_of: '2026-10-31' };
    const full = stale({ ...example.options, model: 'daily_revenue', vars, notFinal: false });
    const candidates = stale({ ...example.options, model: 'daily_revenue', vars, notFinal: false, candidates: true });
    expect(full.stale.length).toBeGreaterThan(0);
    expect(candidates.stale).toEqual(full.stale);
    expect(candidates.partitions).toEqual(full.partitions);
    expect(candidates.totals).toEqual(full.totals);
    expect(candidates.partitions_checked).toBe(full.partitions_checked);
    expect(full.rebuilt_partitions).toBeNull();
    expect(candidates.rebuilt_partitions).toBeGreaterThanOrEqual(full.stale.length);
    expect(candidates.rebuilt_partitions).toBeLessThan(full.partitions_checked / 2);
  });

  it('a changed model definition puts every partition in doubt: the full comparison runs', async () => {
    const { readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const model = join(example.dir, 'models', 'marts', 'daily_revenue.sql');
    writeFileSync(model, readFileSync(model, 'utf8').replace(/ as revenue\b/, ' * 100 as revenue'));
    const vars = { as_of: '2026-10-31' };
    const candidates = stale({ ...example.options, model: 'daily_revenue', vars, notFinal: false, candidates: true });
    expect(candidates.rebuilt_partitions).toBeNull();
    // Revenue in cents: every day with revenue differs (the day whose orders were all cancelled has none).
    expect(candidates.stale.length).toBeGreaterThanOrEqual(candidates.partitions_checked - 1);
  });
}

describe('stale --candidates, SQLite', () => {
  candidatesMatchTheFullComparison(() => ({ kind: 'sqlite' }));
});

describePg('stale --candidates, PostgreSQL', () => {
  let target: PgTestTarget;
  beforeAll(async () => {
    target = await freshPgDatabase('stale_candidates');
  });
  afterAll(async () => {
    await target.drop();
  });
  candidatesMatchTheFullComparison(() => ({ kind: 'pg', target }));
});
