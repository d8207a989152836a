/**
 * replay explains each day that went stale by the late rows that did it,
 * each against the previous version of its order; the versions are read in
 * one scan after the last night (src/analysis/went-stale.ts), when later
 * versions of the same orders are already in the raw table: the version
 * compared is still the one before the late row, not the newest.
 */
import { describe, expect, it } from 'vitest';
import { loadSession, replay, run } from '../../src/index.js';
import { LATE_ORDER_ROWS, lateOrdersProject } from '../support/late-orders-project.js';

describe('went stale: the previous version as of the late row', () => {
  it('a version landed after the replayed nights does not stand in for the late row or the one before it', async () => {
    const later = [
      { load_date: '2026-01-08', order_id: 1, order_date: '2026-01-01', status: 'cancelled', amount: 0 },
      { load_date: '2026-01-09', order_id: 2, order_date: '2026-01-01', status: 'delivered', amount: 25 },
    ];
    const dir = lateOrdersProject([...LATE_ORDER_ROWS, ...later]);
    const session = loadSession({ projectDir: dir });
    expect((await run({ session, command: 'seed', writeArtifacts: false })).exitCode).toBe(0);
    const r = await replay({ session, model: 'daily_revenue', from: '2026-01-02', to: '2026-01-06', vars: {}, compareRequired: false });
    const first = r.went_stale[0]!;
    expect(first).toMatchObject({ partition: '2026-01-01', night: '2026-01-05' });
    expect(first.causes.map((c) => [c.id, c.changes])).toEqual([
      [1, [{ column: 'status', from: 'delivered', to: 'refunded' }]],
      [2, [{ column: 'status', from: 'delivered', to: 'refunded' }]],
    ]);
  });
});
