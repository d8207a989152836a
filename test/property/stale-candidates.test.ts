import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSession, run, stale, type Session } from '../../src/index.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import { describeFeed, feedArbitrary, FEED_START, type RandomFeed } from '../support/feed-arbitrary.js';
import { exampleProject } from '../support/example-project.js';

/**
 * `stale --candidates` rebuilds only the partitions the run ledger cannot
 * vouch for (late rows since their last write, a changed definition, never
 * written): for the example's model (whose incremental runs compute what
 * its full refresh does), over random feeds, random lookbacks, backfills of random ranges
 * and an edit of the model between nights, its answer is the full
 * comparison's, night after night: the same stale partitions and the same
 * live and rebuilt rows of each.
 */
const PARAMS = { seed: 20261204, numRuns: 10, endOnFailure: true } as const;

async function step(session: Session, vars: Record<string, unknown>, fullRefresh = false): Promise<void> {
  const r = await run({ session, vars, select: ['daily_revenue'], fullRefresh, writeArtifacts: false });
  const failure = r.results.find((x) => x.status !== 'success');
  if (failure) throw new Error(failure.message ?? 'failed');
}

/** What both comparisons report, side by side, as of a night. */
function bothWays(session: Session, asOf: string) {
  const vars = { as_of: asOf };
  const candidates = stale({ session, model: 'daily_revenue', vars, notFinal: false, candidates: true });
  const full = stale({ session, model: 'daily_revenue', vars, notFinal: false });
  expect(full.rebuilt_partitions).toBeNull();
  return { candidates, full };
}

const plan = fc.record({
  lookback: fc.nat(3),
  // Nights (counted from the first) after which a backfill of [from, from + span] runs, and where the model is edited.
  backfills: fc.array(fc.record({ after: fc.nat(12), from: fc.nat(9), span: fc.nat(3) }), { maxLength: 2 }),
  editAfter: fc.option(fc.nat(12), { nil: undefined }),
});

describe('stale at candidate cost gives the full comparison\'s answer', () => {
  it('night by night, through late rows, backfills and a model edit', async () => {
    await fc.assert(
      fc.asyncProperty(feedArbitrary(6), plan, async (feed: RandomFeed, p) => {
        try {
          if (feed.rows.length === 0) return;
          const dir = exampleProject(feed.rows);
          let session = loadSession({ projectDir: dir });
          await run({ session, command: 'seed', writeArtifacts: false });
          await step(session, { as_of: FEED_START }, true);
          let usedCandidates = 0;
          const nights = dateRange(addDays(FEED_START, 1), addDays(FEED_START, feed.days + 4));
          for (const [i, night] of nights.entries()) {
            await step(session, { as_of: night, lookback_days: p.lookback });
            for (const b of p.backfills.filter((x) => x.after === i)) {
              const start = addDays(FEED_START, b.from);
              await step(session, { as_of: night, start, end: addDays(start, b.span) });
            }
            if (p.editAfter === i) {
              // A new definition (revenue counted in cents): every partition written before it is in doubt.
              const model = join(dir, 'models', 'marts', 'daily_revenue.sql');
              writeFileSync(model, readFileSync(model, 'utf8').replace(/ as revenue\b/, ' * 100 as revenue'));
              appendFileSync(model, '\n');
              session = loadSession({ projectDir: dir });
            }
            const { candidates, full } = bothWays(session, night);
            if (typeof candidates.rebuilt_partitions === 'number') usedCandidates += 1;
            expect(candidates.stale).toEqual(full.stale);
            expect(candidates.partitions).toEqual(full.partitions);
            expect(candidates.totals).toEqual(full.totals);
          }
          // The point of it: most nights were answered from the candidates alone.
          if (nights.length >= 4) expect(usedCandidates).toBeGreaterThan(0);
        } catch (err) {
          throw new Error(`${err instanceof Error ? err.message : String(err)}\nplan: ${JSON.stringify(p)}\nfeed:\n${describeFeed(feed)}`);
        }
      }),
      PARAMS,
    );
  }, 240_000);
});
