import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSession, run, stale, type Session } from '../../../src/index.js';
import { addDays, dateRange } from '../../../src/feed/iso-date.js';
import { exampleProject } from '../../support/example-project.js';
import { feedArbitrary, FEED_START } from '../../support/feed-arbitrary.js';

async function step(session: Session, vars: Record<string, unknown>, fullRefresh = false): Promise<void> {
  const r = await run({ session, vars, select: ['daily_revenue'], fullRefresh, writeArtifacts: false });
  const failure = r.results.find((x) => x.status !== 'success');
  if (failure) throw new Error(failure.message ?? 'failed');
}

// Fast stale reads the raw table through its indexes when it has them (indexed-late-rows.ts) and
// scans it otherwise: on any history, ledger and as-of, both must give the same report.
describe('fast stale through the raw indexes', () => {
  it('reports exactly what the full scan reports', async () => {
    await fc.assert(
      fc.asyncProperty(feedArbitrary(6), fc.nat(3), fc.nat(8), fc.integer({ min: -3, max: 12 }), async (feed, lookback, builtNights, asOfDay) => {
        if (feed.rows.length === 0) return;
        const dir = exampleProject(feed.rows);
        const session = loadSession({ projectDir: dir });
        await run({ session, command: 'seed', writeArtifacts: false });
        await step(session, { as_of: FEED_START }, true);
        // Some nights only: later partitions may never have been written.
        for (const night of dateRange(addDays(FEED_START, 1), addDays(FEED_START, builtNights))) await step(session, { as_of: night, lookback_days: lookback });
        const asOfs = [undefined, addDays(FEED_START, asOfDay)];
        const report = (asOf: string | undefined) => stale({ session, model: 'daily_revenue', mode: 'fast', vars: asOf ? { as_of: asOf } : {} });
        const indexed = asOfs.map(report);
        const db = new Database(session.project.databasePath);
        db.exec('drop index raw_orders__idx__order_date__load_date; drop index raw_orders__idx__load_date');
        db.close();
        expect(asOfs.map(report)).toEqual(indexed);
      }),
      { seed: 20261203, numRuns: 10, endOnFailure: true },
    );
  });
});
