import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backfill, history, run, stale, loadSession } from '../../src/index.js';
import { generateFeed } from '../../src/feed/generate-feed.js';
import { fullRebuild, replayNightly } from '../support/revenue-oracle.js';
import { copyProject, nightlyProject } from '../support/nightly-project.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';
import { asPlain, dailyRevenue, tableRows } from '../support/warehouse-rows.js';

const FROM = '2026-09-02';
const TO = '2026-10-31';
const REASON = 'refunds landed after the 3-day lookback';

function ledger(dir: string, sql: string, ...params: unknown[]): Record<string, unknown>[] {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('backfill after a lookback-3 nightly job (reference feed)', () => {
  const feed = generateFeed();
  const truth = fullRebuild(feed);
  const stale41 = replayNightly(feed, { from: FROM, to: TO, lookback: 3 }).finalStale;
  let nightly: string;
  beforeAll(async () => {
    ({ dir: nightly } = await nightlyProject(undefined, { from: FROM, to: TO, lookback: 3 }));
    const session = loadSession({ projectDir: nightly });
    await run({ session, select: ['monthly_revenue'], writeArtifacts: false });
  });

  it('--stale makes the table equal a full rebuild, rewriting only the stale partitions', async () => {
    const dir = copyProject(nightly);
    const before = new Map(tableRows(dir, 'daily_revenue').map((r) => [r.order_date as string, r]));
    const result = await backfill({ projectDir: dir, model: 'daily_revenue', stale: true, reason: REASON, writeArtifacts: false });
    expect(result.exitCode).toBe(0);
    expect(result.asOf).toBe('2026-10-31');
    expect(result.ranges.every((r) => r.status === 'success')).toBe(true);
    expect(result.ranges.flatMap((r) => r.partitions)).toEqual(stale41);
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(truth));
    // Every partition that was not stale: its row is byte-identical, and the ledger shows no write to it.
    const after = new Map(tableRows(dir, 'daily_revenue').map((r) => [r.order_date as string, r]));
    const untouched = [...before.keys()].filter((d) => !stale41.includes(d));
    expect(untouched).toHaveLength(20);
    for (const day of untouched) expect(after.get(day)).toEqual(before.get(day));
    const written = ledger(dir, "select p.partition from _mini_dbt_partitions p join _mini_dbt_runs r using (invocation_id) where r.command = 'backfill' order by 1").map((r) => r.partition);
    expect(written).toEqual(stale41);
    // Every range in one run, one publish (like `run --vars '{start, end}'` of their envelope): mode backfill, the reason, everything landed as the as-of.
    const runs = ledger(dir, "select r.reason, r.vars_json, n.mode, n.as_of, n.status from _mini_dbt_runs r join _mini_dbt_node_runs n using (invocation_id) where r.command = 'backfill'");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ reason: REASON, mode: 'backfill', as_of: '2026-10-31', status: 'success' });
    expect(JSON.parse(runs[0]!.vars_json as string)).toMatchObject({ start: stale41[0], end: stale41.at(-1) });
    // The downstream table was built from the old numbers: reported stale.
    expect(result.downstream).toEqual([{ name: 'monthly_revenue', materialized: 'table', rebuilt: false, stale: true }]);
    expect(stale({ projectDir: dir, model: 'daily_revenue' }).stale).toEqual([]);
    // history answers when, why and from which as-of.
    const h = history({ projectDir: dir, model: 'daily_revenue', partition: '2026-09-17' });
    expect(h.last_written).toMatchObject({ command: 'backfill', run_reason: REASON, as_of: '2026-10-31', mode: 'backfill' });
    expect(h.entries.at(-1)).toMatchObject({ command: 'run', mode: 'incremental' });
  });

  it('one range with --select daily_revenue+ rebuilds the downstream table in the same command', async () => {
    const dir = copyProject(nightly);
    const result = await backfill({ projectDir: dir, model: 'daily_revenue', start: '2026-09-03', end: '2026-10-26', reason: REASON, select: ['daily_revenue+'], writeArtifacts: false });
    expect(result.exitCode).toBe(0);
    expect(result.ranges).toHaveLength(1);
    expect(result.ranges[0]).toMatchObject({ start: '2026-09-03', end: '2026-10-26', status: 'success', rawRows: 1007, fullReloadRawRows: 1124 });
    expect(result.ranges[0]!.partitions).toHaveLength(54);
    expect(result.ranges[0]!.before.sums.revenue).toBeGreaterThan(result.ranges[0]!.after!.sums.revenue!);
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(truth));
    expect(result.downstream).toEqual([{ name: 'monthly_revenue', materialized: 'table', rebuilt: true, stale: false }]);
    const sept = tableRows(dir, 'monthly_revenue').find((m) => m.month === '2026-09')!;
    const truthSept = [...truth.values()].filter((d) => d.order_date.startsWith('2026-09')).reduce((s, d) => s + d.revenue, 0);
    expect(sept.revenue).toBeCloseTo(truthSept, 2);
  });

  it('--dry-run reports the plan and writes nothing, not even the ledger', async () => {
    const dir = copyProject(nightly);
    const before = ledger(dir, 'select count(*) as n from _mini_dbt_runs');
    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    const result = await backfill({ projectDir: dir, model: 'daily_revenue', stale: true, dryRun: true });
    expect(result.ranges.flatMap((r) => r.partitions)).toEqual(stale41);
    expect(result.ranges.every((r) => r.status === 'planned')).toBe(true);
    expect(result.downstream.map((d) => d.name)).toEqual(['monthly_revenue']);
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);
    expect(ledger(dir, 'select count(*) as n from _mini_dbt_runs')).toEqual(before);
  });

  it('a backfill failing midway leaves every partition as it was and the ledger records the failure (CLI)', () => {
    const dir = copyProject(nightly);
    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    const r = runCli(['backfill', 'daily_revenue', '--start', '2026-09-03', '--end', '2026-10-26', '--reason', 'inject a failure', '--project-dir', dir], {
      env: { MINI_DBT_INJECT_FAILURE: 'daily_revenue:insert' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/injected failure after the insert step of daily_revenue/);
    expect(r.stdout).toMatch(/Backfill failed: nothing was published; every partition is exactly as it was/);
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);
    const failed = ledger(dir, "select r.status as run_status, r.reason, r.command_line, n.status, n.message, n.mode from _mini_dbt_runs r join _mini_dbt_node_runs n using (invocation_id) where r.command = 'backfill'");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ run_status: 'error', reason: 'inject a failure', status: 'error', mode: 'backfill' });
    expect(failed[0]!.command_line).toBe("mini-dbt backfill daily_revenue --start 2026-09-03 --end 2026-10-26 --reason 'inject a failure' --project-dir " + dir);
    expect(String(failed[0]!.message)).toMatch(/injected failure/);
    expect(ledger(dir, "select count(*) as n from _mini_dbt_partitions p join _mini_dbt_runs r using (invocation_id) where r.command = 'backfill'")).toEqual([{ n: 0 }]);
    // history shows the failed attempt for a partition it meant to write.
    const h = runCli(['history', 'daily_revenue', '--partition', '2026-09-15', '--project-dir', dir]);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/last written .* as of 2026-09-18/);
    expect(h.stdout).toMatch(/backfill +backfill +2026-10-31 2026-09-03\.\.2026-10-26 +0 +0 +0 {2}error +inject a failure/);
  });

  it('the CLI: --stale with a reason, then refusals (no reason in a script, bad dates, old as-of, unknown model)', async () => {
    const dir = copyProject(nightly);
    const ok = runCli(['backfill', 'daily_revenue', '--stale', '--reason', REASON, '--select', 'daily_revenue+', '--project-dir', dir]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/rewrote 41 partition\(s\) in 11 of 11 range\(s\), reading 797 raw row\(s\) of the 1124 a full rebuild reads/);
    expect(ok.stdout).toMatch(/downstream monthly_revenue \(table\): rebuilt in this command/);
    expect(asPlain(dailyRevenue(dir))).toEqual(asPlain(truth));

    const snapshot = warehouseSnapshot(join(dir, 'warehouse.db'));
    // Through the CLI: a script without --reason, an injection attempt in a date, an unknown model.
    const cliCases: [string[], RegExp][] = [
      [['daily_revenue', '--start', '2026-09-03', '--end', '2026-09-04'], /needs --reason "\.\.\." .*refused because stdin is not a terminal/],
      [['daily_revenue', '--start', "2026-09-01'; DROP TABLE daily_revenue; --", '--end', '2026-09-04', '--reason', 'x'], /--start must be a real date written YYYY-MM-DD/],
      [['daily_revenu', '--start', '2026-09-03', '--end', '2026-09-04'], /no model named 'daily_revenu'\. Did you mean 'daily_revenue'\?/],
    ];
    for (const [args, message] of cliCases) {
      const r = runCli(['backfill', ...args, '--project-dir', dir]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    // Through the API (the same ProjectErrors, exit code 2).
    const apiCases: [Partial<Parameters<typeof backfill>[0]>, RegExp][] = [
      [{ start: '2026-09-31', end: '2026-10-04' }, /--start must be a real date/],
      [{ start: '2026-09-05', end: '2026-09-04' }, /--start 2026-09-05 is after --end 2026-09-04/],
      [{ start: '2026-09-03', end: '2026-09-04', vars: { as_of: '2026-09-04' } }, /refusing as_of '2026-09-04' \(an old as-of reproduces the old error\)/],
      [{ start: '2026-09-03' }, /needs --start and --end/],
      [{ stale: true, start: '2026-09-03', end: '2026-09-04' }, /give one of --start\/--end, --stale or --keys, not --stale and --start\/--end/],
      [{ start: '2026-09-03', end: '2026-09-04', select: ['monthly_revenue'] }, /does not include 'daily_revenue'/],
      [{ start: '2026-09-03', end: '2026-09-04', select: ['raw_orders+'] }, /may only add models downstream of 'daily_revenue'; not downstream: stg_orders/],
      [{ model: 'monthly_revenue', start: '2026-09-03', end: '2026-09-04' }, /monthly_revenue' is a table/],
      [{ start: '2026-09-03', end: '2026-09-04', reason: '  ' }, /needs a reason/],
    ];
    for (const [extra, message] of apiCases) {
      await expect(backfill({ projectDir: dir, model: 'daily_revenue', reason: 'x', ...extra })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
    }
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(snapshot);

    const dry = runCli(['backfill', 'daily_revenue', '--start', '2026-09-03', '--end', '2026-10-26', '--dry-run', '--project-dir', dir]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/2026-09-03\.\.2026-10-26 \[plan\]: 54 partition\(s\), 54 row\(s\) would stage from 1007 raw row\(s\)\n.*\n.*checks and audits:\n.* {2}PASS order_date not null\n.* {2}PASS order_date unique/);
    expect(dry.stdout).toMatch(/equivalent: mini-dbt run --select daily_revenue --vars '\{start: 2026-09-03, end: 2026-10-26\}'/);
  });
});
