import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession, replay, run, stale } from '../../src/index.js';
import { generateFeed, type FeedRow } from '../../src/feed/generate-feed.js';
import { maxLateness, replayNightly } from '../support/revenue-oracle.js';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { succeedingRun } from '../support/succeeding-run.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const FROM = '2026-09-02';
const TO = '2026-10-31';

function ledgerCount(dir: string): number {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return Number(db.prepare('select count(*) from _mini_dbt_node_runs').pluck().get());
  } finally {
    db.close();
  }
}

const nights = (r: { nights: readonly { run_date: string; stale: string[] }[] }) => r.nights.map((n) => ({ run_date: n.run_date, stale: n.stale }));

describe.each([
  { seed: 2026, required: 11 },
  { seed: 2027, required: 14 },
])('replay on the generated feed (seed $seed)', ({ seed, required }) => {
  const feed = generateFeed({ seed });

  it('lookback 3 matches the oracle night by night; the required lookback ends with nothing stale; the live warehouse is untouched', async () => {
    const dir = exampleProject(feed);
    const session = loadSession({ projectDir: dir });
    await run({ session, command: 'seed', writeArtifacts: false });
    await run({ session, writeArtifacts: false });
    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    const runs = ledgerCount(dir);

    const progress: number[] = [];
    const result = await replay({ projectDir: dir, model: 'daily_revenue', from: FROM, to: TO, onNight: (p) => progress.push(p.done) });
    const oracle = replayNightly(feed, { from: FROM, to: TO, lookback: 3 });
    expect(result.lookback).toBe(3);
    expect(nights(result)).toEqual(oracle.nights);
    expect(result.final_stale).toEqual(oracle.finalStale);
    expect(result.required_lookback).toBe(required);
    expect(required).toBe(maxLateness(feed));
    const withRequired = result.with_required_lookback!;
    expect(withRequired.lookback).toBe(required);
    expect(withRequired.final_stale).toEqual([]);
    expect(withRequired.nights.every((n) => n.stale.length === 0)).toBe(true);
    expect(withRequired.worst).toMatchObject({ stale_count: 0 });
    expect(progress).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    if (seed === 2026) {
      expect(result.final_stale).toHaveLength(41);
      expect(result.worst).toMatchObject({ run_date: '2026-10-30', stale_count: 41 });
    }
    // The live warehouse, ledger included, is exactly as it was.
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);
    expect(ledgerCount(dir)).toBe(runs);
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual([]);
  });

  it('the stretch question: lookback 3 plus a weekly 30-day backfill on Sundays', async () => {
    const dir = exampleProject(feed);
    const result = await replay({ projectDir: dir, model: 'daily_revenue', from: FROM, to: TO, weeklyBackfill: 30, compareRequired: false });
    const oracle = replayNightly(feed, { from: FROM, to: TO, lookback: 3, weeklyBackfill: 30 });
    expect(nights(result)).toEqual(oracle.nights);
    expect(result.final_stale).toEqual(oracle.finalStale);
    const worst = Math.max(...oracle.nights.map((n) => n.stale.length));
    expect(result.worst!.stale_count).toBe(worst);
    expect(result.worst!.run_date).toBe(oracle.nights.find((n) => n.stale.length === worst)!.run_date);
    expect(result.nights.filter((n) => n.weekly_backfill).map((n) => n.run_date)).toEqual(['2026-09-06', '2026-09-13', '2026-09-20', '2026-09-27', '2026-10-04', '2026-10-11', '2026-10-18', '2026-10-25']);
    // Every Sunday the weekly backfill clears the table.
    for (const n of result.nights.filter((x) => x.weekly_backfill)) expect(n.stale).toEqual([]);
    if (seed === 2026) expect(result.worst).toMatchObject({ run_date: '2026-10-30', stale_count: 9 });
    expect(result.with_required_lookback).toBeNull();
    // Each night checked from the partitions the ledger cannot vouch for: the same nights, night by night.
    const trusted = await replay({ projectDir: dir, model: 'daily_revenue', from: FROM, to: TO, weeklyBackfill: 30, compareRequired: false, candidates: true });
    expect(nights(trusted)).toEqual(oracle.nights);
    expect(trusted.final_stale).toEqual(oracle.finalStale);
    // No live warehouse existed: the replay seeded its scratch copy and left none behind.
    expect(existsSync(join(dir, 'warehouse.db'))).toBe(false);
  });
});

describe('replay on hand-made feeds and through the CLI', () => {
  const row = (load_date: string, order_id: number, order_date: string, status: FeedRow['status'], amount: string): FeedRow => ({ load_date, order_id, order_date, status, amount });

  it('no late rows: nothing stale on any night; required lookback 0', async () => {
    const feed = [row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'), row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'), row('2026-09-03', 3, '2026-09-03', 'cancelled', '9.99')];
    const result = await replay({ projectDir: exampleProject(feed), model: 'daily_revenue', from: '2026-09-02', to: '2026-09-04' });
    expect(result.nights.map((n) => n.stale)).toEqual([[], [], []]);
    expect(result.final_stale).toEqual([]);
    expect(result.required_lookback).toBe(0);
    expect(result.with_required_lookback).toBeNull();
  });

  it('refuses a model with full_refresh: false: its first night must be a rebuild from scratch, which --full-refresh would not do', async () => {
    const feed = [row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'), row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00')];
    const dir = exampleProject(feed);
    const file = join(dir, 'models/marts/daily_revenue.sql');
    writeFileSync(file, readFileSync(file, 'utf8').replace("unique_key='order_date',", "unique_key='order_date', full_refresh=false,"));
    await expect(replay({ projectDir: dir, model: 'daily_revenue', from: '2026-09-02', to: '2026-09-03' }))
      .rejects.toThrow('replay rebuilds daily_revenue and its upstream from scratch before the first night: daily_revenue has full_refresh: false, so --full-refresh would run it incrementally');
  });

  it('a refund exactly at the lookback is caught; a refund after the last night stays stale at the end only', async () => {
    const feed = [
      row('2026-09-01', 1, '2026-09-01', 'delivered', '10.00'),
      row('2026-09-02', 2, '2026-09-02', 'delivered', '20.00'),
      row('2026-09-04', 1, '2026-09-01', 'refunded', '10.00'), // exactly 3 days late: caught
      row('2026-09-12', 2, '2026-09-02', 'refunded', '20.00'), // lands after the last replayed night
    ];
    const result = await replay({ projectDir: exampleProject(feed), model: 'daily_revenue', from: '2026-09-02', to: '2026-09-06' });
    const oracle = replayNightly(feed, { from: '2026-09-02', to: '2026-09-06', lookback: 3 });
    expect(nights(result)).toEqual(oracle.nights);
    expect(result.nights.every((n) => n.stale.length === 0)).toBe(true);
    expect(result.final_stale).toEqual(['2026-09-02']);
    expect(result.final_stale).toEqual(oracle.finalStale);
    expect(result.required_lookback).toBe(10);
    // Even the required lookback cannot see a row that lands after the last night.
    expect(result.with_required_lookback!.final_stale).toEqual(['2026-09-02']);
  });

  it('CLI: --json shape, --keep saves the simulated warehouse, bad flags are refused', async () => {
    const dir = exampleProject();
    await succeedingRun(dir, { command: 'seed' }); // in process: only the replays are the CLI's
    const kept = join(dir, 'nightly.db');
    const r = runCli(['replay', 'daily_revenue', '--from', FROM, '--to', TO, '--weekly-backfill', '30', '--json', '--keep', kept, '--project-dir', dir]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['nights', 'final_stale', 'worst', 'required_lookback']));
    expect(json.nights).toHaveLength(60);
    expect(json.nights[0]).toEqual({ run_date: FROM, stale: [], weekly_backfill: false, window: ['2026-09-01', FROM] });
    expect(json.worst).toMatchObject({ run_date: '2026-10-30', stale_count: 9 });
    expect(json.required_lookback).toBe(11);
    expect(json.with_required_lookback).toMatchObject({ lookback: 11, final_stale: [] });
    expect(stale({ projectDir: dir, database: kept, model: 'daily_revenue' }).stale).toEqual(json.final_stale);

    const text = runCli(['replay', 'daily_revenue', '--from', FROM, '--to', '2026-09-10', '--project-dir', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^2026-09-09 +1  /m);
    expect(text.stdout).toMatch(/required lookback: 11/);
    expect(text.stdout).toMatch(/the same replay with lookback 11: worst night 0 stale, /);
    expect(text.stderr).toBe(''); // no progress bar without a terminal

    for (const [args, message] of [
      [['--from', "2026-09-02'; DROP TABLE raw_orders; --", '--to', TO], /--from must be a real date/],
      [['--from', TO, '--to', FROM], /--from 2026-10-31 is after --to 2026-09-02/],
      [['--from', FROM], /replay needs --from and --to/],
      [['--from', FROM, '--to', TO, '--weekly-backfill', 'weekly'], /--weekly-backfill must be a whole number/],
      [['--from', FROM, '--to', TO, '--keep', kept], /--keep .*the file exists/],
    ] as [string[], RegExp][]) {
      const bad = runCli(['replay', 'daily_revenue', ...args, '--project-dir', dir]);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
    const typo = runCli(['replay', 'daily_revenu', '--from', FROM, '--to', TO, '--project-dir', dir]);
    expect(typo.stderr).toMatch(/Did you mean 'daily_revenue'\?/);
  });
});
