import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { feedToCsv, generateFeed } from '../../src/feed/generate-feed.js';
import { CLI, exampleProject } from '../support/example-project.js';
import { cliEnv, runCli, runCliAsync } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/**
 * Kill the real CLI with SIGKILL at every crash point of a command (the
 * tool's MINI_DBT_CRASH_AT hook: each statement of a publish, the ledger
 * writes, the commits), then check the warehouse: intact, every table as it
 * was before or as a clean run leaves it, the interrupted run not marked
 * successful, and a rerun finishing cleanly.
 */
interface Scenario {
  readonly name: string;
  readonly args: readonly string[];
  /** Prepare the project dir before the command (e.g. a new feed for seed). */
  readonly prepare?: (dir: string) => void;
  /**
   * What must be whole after a kill: every table (one transaction per publish), or, for
   * microbatch, every partition of `table` (one transaction per batch).
   */
  readonly unit?: { readonly table: string; readonly partition: string };
  /** Kill at most this many points, spread evenly over the run. */
  readonly maxTrials?: number;
}

const MICROBATCH_MODEL = `{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='order_date',
    batch_size='day', begin='2026-09-01', lookback=1) }}
select order_date, count(*) as versions, round(sum(amount), 2) as amount
from {{ ref('raw_orders') }}
group by order_date`;

const SCENARIOS: Scenario[] = [
  { name: 'seed of a new feed', args: ['seed'], maxTrials: 8, prepare: (dir) => writeFileSync(join(dir, 'seeds/raw_orders.csv'), feedToCsv(generateFeed({ seed: 2027 }))) },
  { name: 'full build', args: ['run', '--full-refresh'], maxTrials: 12 },
  { name: 'nightly incremental run', args: ['run', '-s', 'daily_revenue', '--vars', '{as_of: "2026-10-25", lookback_days: 11}'], maxTrials: 10 },
  { name: 'backfill of a long range', args: ['run', '-s', 'daily_revenue+', '--vars', '{start: "2026-09-01", end: "2026-10-26"}'], maxTrials: 12 },
  {
    name: 'microbatch run of 12 daily batches',
    args: ['run', '-s', 'orders_by_day', '--event-time-start', '2026-10-01', '--event-time-end', '2026-10-13'],
    prepare: (dir) => writeFileSync(join(dir, 'models/orders_by_day.sql'), MICROBATCH_MODEL),
    unit: { table: 'orders_by_day', partition: 'order_date' },
    maxTrials: 10,
  },
];

type Snapshot = Record<string, unknown>;
const tablesOf = (s: Snapshot) => Object.keys(s).filter((k) => k !== 'schema');

let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['seed', '--project-dir', base]).code).toBe(0);
  expect(runCli(['run', '--full-refresh', '--project-dir', base, '--vars', '{as_of: "2026-10-10"}']).code).toBe(0);
});

function freshCopy(scenario: Scenario): string {
  const dir = exampleProject();
  copyFileSync(join(base, 'warehouse.db'), join(dir, 'warehouse.db'));
  scenario.prepare?.(dir);
  return dir;
}

function runKilledAt(dir: string, args: readonly string[], point: number): Promise<{ signal: NodeJS.Signals | null; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args, '--project-dir', dir], {
      env: cliEnv({ MINI_DBT_CRASH_AT: String(point) }),
      stdio: 'ignore',
    });
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
}

function ledgerStatuses(dir: string): string[] {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return (db.prepare('select status from _mini_dbt_runs order by started_at').all() as { status: string }[]).map((r) => r.status);
  } finally {
    db.close();
  }
}

function integrity(dir: string): string {
  const db = new Database(join(dir, 'warehouse.db'));
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

type Row = Record<string, unknown>;
/** Every partition (e.g. a microbatch day) is either as before or as after the command. */
function expectWholePartitions(column: string, before: unknown, after: unknown, now: unknown, point: number): void {
  const byPartition = (rows: unknown) => {
    const out = new Map<string, string>();
    for (const row of (Array.isArray(rows) ? rows : []) as Row[]) {
      const key = String(row[column]);
      out.set(key, `${out.get(key) ?? ''}${JSON.stringify(row)}`);
    }
    return out;
  };
  const [b, a, n] = [byPartition(before), byPartition(after), byPartition(now)];
  for (const key of new Set([...b.keys(), ...a.keys(), ...n.keys()])) {
    expect([b.get(key), a.get(key)], `partition ${key} after a kill at point ${point} is half written`).toContain(n.get(key));
  }
}

const outcomes: Record<string, { trials: number; before: number; after: number; mixed: number }> = {};

describe('crash safety: SIGKILL at every crash point', () => {
  it.each(SCENARIOS)('$name', async (scenario) => {
    // The warehouse each trial starts from: the base's (a scenario's prepare changes files only).
    const before = warehouseSnapshot(join(base, 'warehouse.db'));
    const clean = freshCopy(scenario);
    const counted = runCli([...scenario.args, '--project-dir', clean], { env: { MINI_DBT_CRASH_COUNT: '1' } });
    expect(counted.code).toBe(0);
    const points = Number(/crash points passed: (\d+)/.exec(counted.stderr)?.[1]);
    expect(points).toBeGreaterThan(2);
    const after = warehouseSnapshot(join(clean, 'warehouse.db'));
    expect(after).not.toEqual(before);

    const tally = { trials: 0, before: 0, after: 0, mixed: 0 };
    // MINI_DBT_CRASH_ALL=1 kills at every crash point (159 trials); by default a spread of 52.
    const trials = process.env.MINI_DBT_CRASH_ALL ? points : Math.min(points, scenario.maxTrials ?? points);
    const killPoints = [...new Set(Array.from({ length: trials }, (_, i) => 1 + Math.floor((i * points) / trials)))];
    const trial = async (point: number) => {
      const dir = freshCopy(scenario);
      const killed = await runKilledAt(dir, scenario.args, point);
      expect(killed.signal).toBe('SIGKILL');
      tally.trials++;
      expect(integrity(dir)).toBe('ok');
      const now = warehouseSnapshot(join(dir, 'warehouse.db'));
      for (const table of new Set([...tablesOf(before), ...tablesOf(after), ...tablesOf(now)])) {
        if (scenario.unit?.table === table) {
          expectWholePartitions(scenario.unit.partition, before[table], after[table], now[table], point);
          continue;
        }
        const state = now[table];
        const matches = [before[table], after[table]].some((s) => JSON.stringify(s) === JSON.stringify(state));
        expect(matches, `table ${table} after a kill at point ${point} is neither its old nor its new state`).toBe(true);
      }
      const same = (a: Snapshot) => tablesOf(now).every((t) => JSON.stringify(now[t]) === JSON.stringify(a[t]));
      if (same(before)) tally.before++;
      else if (same(after)) tally.after++;
      else tally.mixed++;
      // The interrupted command is never recorded as a success.
      expect(ledgerStatuses(dir).at(-1)).toBe('running');
      // Rerunning it finishes cleanly with the clean result.
      expect((await runCliAsync([...scenario.args, '--project-dir', dir])).code).toBe(0);
      expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(after);
      expect(integrity(dir)).toBe('ok');
    };
    // Three trials at a time: each is its own copy of the warehouse.
    const queue = [...killPoints];
    await Promise.all([0, 1, 2].map(async () => {
      for (let point = queue.shift(); point !== undefined; point = queue.shift()) await trial(point);
    }));
    outcomes[scenario.name] = tally;
  }, 240_000);

  it('ran at least 50 kill trials across the commands', () => {
    const total = Object.values(outcomes).reduce((n, o) => n + o.trials, 0);
    console.log(`crash trials: ${JSON.stringify(outcomes)} total=${total}`);
    expect(total).toBeGreaterThanOrEqual(50);
  });
});
