/**
 * `stale --candidates` finds its candidates from what happened since the
 * model's last full build (src/analysis/candidates-since-full-build.ts):
 * the writes recorded since, and the raw rows landed between the as-ofs
 * involved. Its answer must stay the full comparison's where that reading
 * is easiest to get wrong: days the full build never wrote, a table ahead
 * of the as-of asked about, and a write since under another definition.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { candidatesSinceFullBuild } from '../../src/analysis/candidates-since-full-build.js';
import { findModel } from '../../src/analysis/find-node.js';
import { openProjectWarehouse } from '../../src/engine/open-warehouse.js';
import { run, stale, withVars } from '../../src/index.js';
import { definitionHash } from '../../src/plan/definition-hash.js';
import { runNightly, toolkitExample, type ToolkitExample } from '../support/toolkit-example.js';

let example: ToolkitExample;

/** The partitions the ledger reading gives as of a night (undefined: it cannot say). */
function sinceFullBuild(asOf: string): string[] | undefined {
  const session = withVars(example.session(), { as_of: asOf });
  const node = findModel(session.manifest, 'daily_revenue');
  const db = openProjectWarehouse(session.project, { readonly: true });
  try {
    const hash = definitionHash(session.manifest, session.graph, node, db);
    return hash === null ? undefined : candidatesSinceFullBuild(db, session.manifest, session.graph, node, asOf, hash);
  } finally {
    db.close();
  }
}

/** Both answers as of a night: the candidates' must be the full comparison's. */
function bothWays(asOf: string) {
  const vars = { as_of: asOf };
  const full = stale({ ...example.options, model: 'daily_revenue', vars, notFinal: false });
  const candidates = stale({ ...example.options, model: 'daily_revenue', vars, notFinal: false, candidates: true });
  expect(full.rebuilt_partitions).toBeNull();
  expect(candidates.stale).toEqual(full.stale);
  expect(candidates.partitions).toEqual(full.partitions);
  expect(candidates.totals).toEqual(full.totals);
  expect(candidates.partitions_checked).toBe(full.partitions_checked);
  return { full, candidates };
}

describe('stale --candidates from the ledger since the last full build', () => {
  beforeAll(async () => {
    example = toolkitExample({ kind: 'sqlite' });
    // A full build as of 2026-10-10, then ten nights with lookback 1: late rows for older days are missed.
    await runNightly(example, { from: '2026-10-11', to: '2026-10-20', lookback: 1 });
  }, 120_000);

  it('days never written (their rows landed after every run) and late rows, as of a later night', () => {
    const { full, candidates } = bothWays('2026-10-31');
    // 2026-10-21..31 are in no run: the rebuild has them, the table not.
    expect(full.stale).toEqual(expect.arrayContaining(['2026-10-21', '2026-10-31']));
    expect(full.stale.some((p) => p < '2026-10-10')).toBe(true);
    expect(candidates.rebuilt_partitions).toBeLessThan(full.partitions_checked / 2);
    expect(sinceFullBuild('2026-10-31')).toEqual(expect.arrayContaining(full.stale));
  });

  it('a table ahead of the as-of asked about: rows landed after that night, before the writes', () => {
    const { full } = bothWays('2026-10-14');
    // The nights through 2026-10-20 wrote rows that had not landed by 2026-10-14.
    expect(full.stale.length).toBeGreaterThan(0);
    expect(full.stale.some((p) => p > '2026-10-14')).toBe(true);
    expect(sinceFullBuild('2026-10-14')).toEqual(expect.arrayContaining(full.stale));
  });

  it('an as-of before the full build itself: the rows it saw that the night asked about had not', () => {
    const { full } = bothWays('2026-10-07');
    expect(full.stale.some((p) => p <= '2026-10-07')).toBe(true);
    expect(sinceFullBuild('2026-10-07')).toEqual(expect.arrayContaining(full.stale));
  });

  it('a backfill since the full build under another definition: its days are in doubt when the definition comes back', async () => {
    const model = join(example.dir, 'models', 'marts', 'daily_revenue.sql');
    const original = readFileSync(model, 'utf8');
    writeFileSync(model, original.replace(/ as revenue\b/, ' * 100 as revenue'));
    const backfill = await run({ ...example.options, select: ['daily_revenue'], vars: { as_of: '2026-10-20', start: '2026-09-10', end: '2026-09-12' }, writeArtifacts: false });
    expect(backfill.exitCode).toBe(0);
    writeFileSync(model, original);
    const { full } = bothWays('2026-10-20');
    // Revenue in cents on the three backfilled days (those with any).
    expect(full.stale).toEqual(expect.arrayContaining(['2026-09-10', '2026-09-11', '2026-09-12']));
    expect(sinceFullBuild('2026-10-20')).toEqual(expect.arrayContaining(['2026-09-10', '2026-09-11', '2026-09-12']));
  });
});
