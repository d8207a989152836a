import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSession, run, type Session } from '../../src/index.js';
import type { FeedRow } from '../../src/feed/generate-feed.js';
import { addDays, dateRange } from '../../src/feed/iso-date.js';
import { exampleProject } from './example-project.js';

export interface NightlyOptions {
  readonly from: string;
  readonly to: string;
  readonly lookback: number;
}

/**
 * The example project with `feed`, seeded, built in full as of the night
 * before `from`, then run once a night through `to` with the lookback: the
 * live warehouse as the nightly job left it (through the API, not replay).
 */
export async function nightlyProject(feed: readonly FeedRow[] | undefined, o: NightlyOptions): Promise<{ dir: string; session: Session }> {
  const dir = exampleProject(feed);
  const session = loadSession({ projectDir: dir });
  const must = async (p: ReturnType<typeof run>) => {
    const r = await p;
    if (r.exitCode !== 0) throw new Error(`run failed: ${r.results.map((x) => x.message).join('; ')}`);
  };
  await must(run({ session, command: 'seed', writeArtifacts: false }));
  await must(run({ session, select: ['daily_revenue'], fullRefresh: true, vars: { as_of: addDays(o.from, -1) }, writeArtifacts: false }));
  for (const night of dateRange(o.from, o.to)) {
    await must(run({ session, select: ['daily_revenue'], vars: { as_of: night, lookback_days: o.lookback }, writeArtifacts: false }));
  }
  return { dir, session };
}

/** A copy of a project folder (warehouse included), for a test that changes it. */
export function copyProject(dir: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'mini-dbt-copy-'));
  cpSync(dir, copy, { recursive: true });
  return copy;
}
