import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { feedToCsv, generateFeed } from '../../src/feed/generate-feed.js';
import { CLI, exampleProject } from '../support/example-project.js';
import { cliEnv, runCli, runCliAsync } from '../support/run-cli.js';
import { describePg, freshPgDatabase, writePgProfiles, type PgTestTarget } from '../support/pg-test-database.js';
import { clonePgDatabase, dropPgDatabase, pgLedgerStatuses, pgWarehouseSnapshot, waitForNoSessions } from '../support/pg-warehouse-snapshot.js';

/**
 * Crash safety on PostgreSQL (issue 17): the real CLI, on a `type: postgres`
 * target, is killed with SIGKILL at random crash points (MINI_DBT_CRASH_AT:
 * each statement of a publish, each COPY batch of a seed, the ledger writes,
 * the commits) of a seed, a full build, a nightly run and a backfill. Each
 * trial runs on its own copy of the warehouse (CREATE DATABASE ... TEMPLATE);
 * once the killed session is gone (the server rolls its transaction back),
 * every table must be exactly as before or exactly as a clean run leaves it,
 * the ledger must not call the run a success, and a rerun must finish with
 * the clean result. PostgreSQL's transactional DDL makes this hold: every
 * publish (staging, swap, indexes, ledger rows) is one transaction.
 */
interface Scenario {
  readonly name: string;
  readonly args: readonly string[];
  readonly prepare?: (dir: string) => void;
  readonly trials: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'seed of a new feed', args: ['seed'], trials: 7, prepare: (dir) => writeFileSync(join(dir, 'seeds/raw_orders.csv'), feedToCsv(generateFeed({ seed: 2027 }))) },
  { name: 'full build', args: ['run', '--full-refresh'], trials: 10 },
  { name: 'nightly incremental run', args: ['run', '-s', 'daily_revenue', '--vars', '{as_of: "2026-10-25", lookback_days: 11}'], trials: 7 },
  { name: 'backfill of a long range', args: ['run', '-s', 'daily_revenue+', '--vars', '{start: "2026-09-01", end: "2026-10-26"}'], trials: 9 },
];

/** The kill points: `count` distinct points drawn at random from 1..points (seeded: the seed is printed to replay a failure). */
function randomPoints(points: number, count: number, seed: number): number[] {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, points)) chosen.add(1 + Math.floor(next() * points));
  return [...chosen].sort((a, b) => a - b);
}

const SEED = Number(process.env.MINI_DBT_CRASH_SEED ?? Date.now() % 1_000_000);

describePg('crash safety on PostgreSQL: SIGKILL at random crash points', () => {
  let base: PgTestTarget;
  let counter = 0;
  const made: string[] = [];
  const outcomes: Record<string, { trials: number; before: number; after: number; mixed: number }> = {};

  /** A project dir on its own copy of the base warehouse. */
  async function freshCopy(scenario: Scenario): Promise<{ dir: string; place: PgTestTarget }> {
    const database = `${base.database}_${++counter}`.slice(0, 63);
    await clonePgDatabase(base.database, database);
    made.push(database);
    const place = { ...base, database, drop: () => dropPgDatabase(database) };
    const dir = exampleProject();
    appendFileSync(join(dir, 'project.yml'), 'profile: brightcart\n');
    writePgProfiles(dir, place, { profile: 'brightcart' });
    scenario.prepare?.(dir);
    return { dir, place };
  }

  const cli = (args: readonly string[], dir: string) => [...args, '--project-dir', dir, '--profiles-dir', dir];

  beforeAll(async () => {
    base = await freshPgDatabase('crash');
    const dir = exampleProject();
    appendFileSync(join(dir, 'project.yml'), 'profile: brightcart\n');
    writePgProfiles(dir, base, { profile: 'brightcart' });
    const seeded = runCli(cli(['seed'], dir));
    expect(seeded.code, seeded.stdout + seeded.stderr).toBe(0);
    const built = runCli(cli(['run', '--full-refresh', '--vars', '{as_of: "2026-10-10"}'], dir));
    expect(built.code, built.stdout + built.stderr).toBe(0);
    console.log(`crash kill points drawn with MINI_DBT_CRASH_SEED=${SEED}`);
  }, 60_000);

  afterAll(async () => {
    for (const database of made) await dropPgDatabase(database);
    await base?.drop();
    const total = Object.values(outcomes).reduce((n, o) => n + o.trials, 0);
    console.log(`PostgreSQL crash trials: ${JSON.stringify(outcomes)} total=${total}`);
  });

  function runKilledAt(dir: string, args: readonly string[], point: number): Promise<{ signal: NodeJS.Signals | null; code: number | null }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...cli(args, dir)], { env: cliEnv({ MINI_DBT_CRASH_AT: String(point) }), stdio: 'ignore' });
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  it.each(SCENARIOS)('$name', async (scenario) => {
    // The warehouse each trial starts from: the base's, which every copy is made from (a scenario's prepare changes files only).
    const before = await pgWarehouseSnapshot(base);
    const clean = await freshCopy(scenario);
    const counted = runCli(cli(scenario.args, clean.dir), { env: { MINI_DBT_CRASH_COUNT: '1' } });
    expect(counted.code, counted.stdout + counted.stderr).toBe(0);
    const points = Number(/crash points passed: (\d+)/.exec(counted.stderr)?.[1]);
    expect(points).toBeGreaterThan(2);
    const after = await pgWarehouseSnapshot(clean.place);
    expect(after).not.toEqual(before);
    const tables = (s: Record<string, unknown>) => Object.keys(s).filter((k) => k !== 'schema');

    const tally = { trials: 0, before: 0, after: 0, mixed: 0 };
    const trial = async (point: number) => {
      const { dir, place } = await freshCopy(scenario);
      const killed = await runKilledAt(dir, scenario.args, point);
      expect(killed.signal).toBe('SIGKILL');
      tally.trials++;
      await waitForNoSessions(place.database);
      const now = await pgWarehouseSnapshot(place);
      for (const table of new Set([...tables(before), ...tables(after), ...tables(now)])) {
        const matches = [before[table], after[table]].some((s) => JSON.stringify(s) === JSON.stringify(now[table]));
        expect(matches, `${scenario.name}: table ${table} after a kill at point ${point} is neither its old nor its new state`).toBe(true);
      }
      // Objects (relations, indexes, views) too: no staging table left, no index half made.
      expect([JSON.stringify(before.schema), JSON.stringify(after.schema)], `schema objects after a kill at point ${point}`).toContain(JSON.stringify(now.schema));
      const same = (s: Record<string, unknown>) => tables(now).every((t) => JSON.stringify(now[t]) === JSON.stringify(s[t]));
      if (same(before)) tally.before++;
      else if (same(after)) tally.after++;
      else tally.mixed++;
      expect((await pgLedgerStatuses(place)).at(-1)).toBe('running');
      const rerun = await runCliAsync(cli(scenario.args, dir));
      expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
      expect(await pgWarehouseSnapshot(place)).toEqual(after);
      await dropPgDatabase(place.database);
    };
    const queue = randomPoints(points, scenario.trials, SEED + scenario.name.length);
    await Promise.all([0, 1, 2].map(async () => {
      for (let point = queue.shift(); point !== undefined; point = queue.shift()) await trial(point);
    }));
    outcomes[scenario.name] = tally;
  }, 240_000);

  it('ran at least 30 kill trials across seed, full build, nightly run and backfill', () => {
    const total = Object.values(outcomes).reduce((n, o) => n + o.trials, 0);
    expect(total).toBeGreaterThanOrEqual(30);
  });
});
