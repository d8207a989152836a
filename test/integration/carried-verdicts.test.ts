import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSession, replay, run, type Session } from '../../src/index.js';
import { withVars } from '../../src/api/session.js';
import { CarriedVerdicts } from '../../src/analysis/carried-verdicts.js';
import { candidateStale } from '../../src/analysis/candidate-stale.js';
import { exactStale } from '../../src/analysis/exact-stale.js';
import { findModel } from '../../src/analysis/find-node.js';
import { openProjectWarehouse } from '../../src/engine/open-warehouse.js';
import { addDays, dateRange, dayOfWeek } from '../../src/feed/iso-date.js';
import { generateFeed } from '../../src/feed/generate-feed.js';
import { exampleProject } from '../support/example-project.js';
import { describePg, freshPgDatabase, type PgTestTarget } from '../support/pg-test-database.js';
import { runNightly, toolkitExample } from '../support/toolkit-example.js';

/**
 * Carried verdicts (a candidate keeps last night's verdict unless a row for
 * its day landed or a run wrote it since) give, night after night, the
 * stale list of the full comparison and of candidateStale checked whole:
 * through late rows (the generated feed lands rows up to two weeks late, so
 * stale days pile up under lookback 3), a weekly backfill of old days, and
 * an edit of the model between two nights.
 */
const FROM = '2026-09-02';
const TO = '2026-10-31';

async function step(session: Session, vars: Record<string, unknown>, fullRefresh = false): Promise<void> {
  const r = await run({ session, vars, select: ['daily_revenue'], fullRefresh, writeArtifacts: false });
  const failure = r.results.find((x) => x.status !== 'success');
  if (failure) throw new Error(failure.message ?? 'failed');
}

describe('carried verdicts', () => {
  it('night by night, the full comparison\'s stale list, while most nights rebuild only what landed or was written', async () => {
    const dir = exampleProject(generateFeed({ seed: 2026 }));
    let session = loadSession({ projectDir: dir });
    await run({ session, command: 'seed', writeArtifacts: false });
    await step(session, { as_of: addDays(FROM, -1) }, true);
    const db = openProjectWarehouse(session.project);
    try {
      const carried = new CarriedVerdicts(db, session.graph, findModel(session.manifest, 'daily_revenue'));
      const edit = '2026-10-25';
      let staleNights = 0;
      for (const night of dateRange(FROM, TO)) {
        await step(session, { as_of: night, lookback_days: 3 });
        // Sundays: a backfill of ten old days (not the window), as of tonight.
        if (dayOfWeek(night) === 0) await step(session, { as_of: night, start: addDays(night, -20), end: addDays(night, -11) });
        if (night === edit) {
          // A new definition (revenue counted in cents): every partition written before it is in doubt.
          const model = join(dir, 'models', 'marts', 'daily_revenue.sql');
          writeFileSync(model, readFileSync(model, 'utf8').replace(/ as revenue\b/, ' * 100 as revenue'));
          session = loadSession({ projectDir: dir });
        }
        const manifest = withVars(session, { as_of: night }).manifest;
        const node = findModel(manifest, 'daily_revenue');
        const full = exactStale(db, manifest, node, { detailPartitions: 0 }).stale;
        // Undefined (only the full comparison can say) from the edit on: every partition is a candidate then.
        const whole = candidateStale(db, manifest, session.graph, node, night, { detailPartitions: 0 })?.stale;
        expect({ night, stale: carried.stale(manifest, night) }).toEqual({ night, stale: whole });
        expect({ night, stale: whole ?? full }).toEqual({ night, stale: full });
        expect(whole === undefined).toBe(night >= edit);
        if (full.length > 0) staleNights += 1;
      }
      expect(staleNights).toBeGreaterThan(30);
      // The first night and every night from the edit on are checked whole; every other night carries.
      const afterEdit = dateRange(edit, TO).length;
      expect(carried.checks).toEqual({ whole: 1 + afterEdit, carried: dateRange(FROM, TO).length - 1 - afterEdit });
    } finally {
      db.close();
    }
  }, 120_000);

  it('replay --candidates: the same nights and final list as the full rebuild each night, lookback 3 and with a weekly backfill', async () => {
    const dir = exampleProject(generateFeed({ seed: 2027 }));
    const session = loadSession({ projectDir: dir });
    await run({ session, command: 'seed', writeArtifacts: false });
    await run({ session, writeArtifacts: false });
    const nights = (r: { nights: readonly { run_date: string; stale: string[] }[] }) => r.nights.map((n) => ({ run_date: n.run_date, stale: n.stale }));
    for (const weeklyBackfill of [undefined, 30]) {
      const full = await replay({ projectDir: dir, model: 'daily_revenue', from: FROM, to: TO, weeklyBackfill, compareRequired: false });
      const carried = await replay({ projectDir: dir, model: 'daily_revenue', from: FROM, to: TO, weeklyBackfill, compareRequired: false, candidates: true });
      expect(nights(carried)).toEqual(nights(full));
      expect(carried.final_stale).toEqual(full.final_stale);
      expect(carried.went_stale).toEqual(full.went_stale);
      if (weeklyBackfill === undefined) expect(full.final_stale.length).toBeGreaterThan(10);
    }
  }, 120_000);
});

describePg('carried verdicts, PostgreSQL', () => {
  let target: PgTestTarget;
  beforeAll(async () => {
    target = await freshPgDatabase('carried_verdicts');
  });
  afterAll(async () => {
    await target.drop();
  });

  it('replay --candidates: the same nights, final list and causes as the full rebuild each night', async () => {
    const example = toolkitExample({ kind: 'pg', target });
    await runNightly(example, { from: '2026-10-21', to: '2026-10-31', lookback: 3 });
    const options = { ...example.options, model: 'daily_revenue', from: '2026-09-10', to: '2026-10-20', weeklyBackfill: 9, compareRequired: false };
    const full = await replay(options);
    const carried = await replay({ ...options, candidates: true });
    expect(carried.nights).toEqual(full.nights);
    expect(carried.final_stale).toEqual(full.final_stale);
    expect(carried.went_stale).toEqual(full.went_stale);
    expect(full.nights.some((n) => n.stale.length > 3)).toBe(true);
  }, 120_000);
});
