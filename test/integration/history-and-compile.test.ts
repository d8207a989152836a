import { beforeAll, describe, expect, it } from 'vitest';
import { backfill, compile, history, loadSession, run } from '../../src/index.js';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

describe('history and the compile window', () => {
  let dir: string;
  beforeAll(async () => {
    dir = exampleProject();
    const session = loadSession({ projectDir: dir });
    await run({ session, command: 'seed', writeArtifacts: false });
    await run({ session, select: ['daily_revenue'], fullRefresh: true, vars: { as_of: '2026-10-20' }, writeArtifacts: false });
    for (const night of ['2026-10-21', '2026-10-22']) await run({ session, select: ['daily_revenue'], vars: { as_of: night }, writeArtifacts: false, commandLine: `nightly ${night}` });
    await backfill({ session, model: 'daily_revenue', start: '2026-10-01', end: '2026-10-05', reason: 'finance asked for October', writeArtifacts: false });
  });

  it('history of a partition: the last write, its reason and as-of, newest first', () => {
    const h = history({ projectDir: dir, model: 'daily_revenue', partition: '2026-10-19' });
    expect(h.entries.map((e) => [e.command, e.mode, e.as_of])).toEqual([
      ['run', 'incremental', '2026-10-22'],
      ['run', 'incremental', '2026-10-21'],
      ['run', 'full', '2026-10-20'],
    ]);
    expect(h.last_written).toMatchObject({ command_line: 'nightly 2026-10-22', window_start: '2026-10-19', window_end: '2026-10-22', partitions_written: 4 });
    const b = history({ projectDir: dir, model: 'daily_revenue', partition: '2026-10-03' });
    expect(b.last_written).toMatchObject({ command: 'backfill', run_reason: 'finance asked for October', as_of: '2026-10-31', vars: { start: '2026-10-01', end: '2026-10-05' } });
    expect(history({ projectDir: dir, model: 'daily_revenue', partition: '2026-12-25' })).toMatchObject({ entries: [], last_written: null });
  });

  it('CLI history: headline, table, --json, and refusals', () => {
    const r = runCli(['history', 'daily_revenue', '--partition', '2026-10-03', '--project-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/partition 2026-10-03 of daily_revenue was last written .* by `mini-dbt backfill daily_revenue --start 2026-10-01 --end 2026-10-05` \(backfill, delete\+insert\) as of 2026-10-31/);
    expect(r.stdout).toMatch(/why: finance asked for October/);
    const all = JSON.parse(runCli(['history', 'daily_revenue', '--json', '--limit', '2', '--project-dir', dir]).stdout);
    expect(all.entries.map((e: { command: string }) => e.command)).toEqual(['backfill', 'run']);
    const bad = runCli(['history', 'daily_revenue', '--partition', "2026-10-03' or 1=1 --", '--project-dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--partition must be a real date/);
    expect(runCli(['history', 'dailyrevenue', '--project-dir', dir]).stderr).toMatch(/Did you mean 'daily_revenue'\?/);
  });

  it('compile shows both renderings and the window the incremental run would rewrite', () => {
    const [c] = compile({ projectDir: dir, select: ['daily_revenue'] });
    expect(c!.fullSql).not.toMatch(/between/);
    expect(c!.incrementalSql).toMatch(/and order_date between date\(\(select max\(load_date\) from "main"."raw_orders"\), '-3 days'\) and/);
    expect(c!.window).toEqual({ first: '2026-10-28', last: '2026-10-31', partitions: 4, rows: 4 });
    const [asOf] = compile({ projectDir: dir, select: ['daily_revenue'], vars: { as_of: '2026-09-15', lookback_days: 5 } });
    expect(asOf!.window).toMatchObject({ first: '2026-09-10', last: '2026-09-15', partitions: 6 });
    const r = runCli(['compile', '--select', 'daily_revenue', '--project-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/-- full build \(first run or --full-refresh; is_incremental\(\) is false\):/);
    expect(r.stdout).toMatch(/-- incremental run \(is_incremental\(\) is true\):/);
    expect(r.stdout).toMatch(/-- window: an incremental run now would rewrite 4 partitions of order_date: 2026-10-28\.\.2026-10-31 \(4 rows\)/);
  });
});
