import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli, runCliAsync, type CliResult } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

/** Start the CLI without waiting for it. */
function start(args: readonly string[], dir: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runCliAsync([...args, '--project-dir', dir], { env });
}

const SLOW_MODEL = `{{ config(materialized='table') }}
with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000)
select count(*) as n from c`;

let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['seed', '--project-dir', base]).code).toBe(0);
  expect(runCli(['run', '--full-refresh', '--project-dir', base, '--vars', '{as_of: "2026-10-10"}']).code).toBe(0);
});

function copy(): string {
  const dir = exampleProject();
  copyFileSync(join(base, 'warehouse.db'), join(dir, 'warehouse.db'));
  return dir;
}

const NIGHT = ['run', '-s', 'daily_revenue', '--vars', '{as_of: "2026-10-20", lookback_days: 3}'];
const BACKFILL = ['run', '-s', 'daily_revenue', '--vars', '{start: "2026-09-01", end: "2026-10-15"}'];

describe('two processes on one warehouse', () => {
  it('two runs at once: the second waits, both succeed, the result equals a serial run', async () => {
    const dir = copy();
    const [a, b] = await Promise.all([start(['run', '--full-refresh'], dir), start(['run', '--full-refresh'], dir)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const serial = copy();
    runCli(['run', '--full-refresh', '--project-dir', serial]);
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(warehouseSnapshot(join(serial, 'warehouse.db')));
  });

  it('a nightly run and a backfill at once: each publish is whole, the result is one of the two serial orders', async () => {
    const dir = copy();
    const [a, b] = await Promise.all([start(NIGHT, dir), start(BACKFILL, dir)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const orders = [[NIGHT, BACKFILL], [BACKFILL, NIGHT]].map(([first, second]) => {
      const d = copy();
      runCli([...first!, '--project-dir', d]);
      runCli([...second!, '--project-dir', d]);
      return JSON.stringify(warehouseSnapshot(join(d, 'warehouse.db')).daily_revenue);
    });
    expect(orders).toContain(JSON.stringify(warehouseSnapshot(join(dir, 'warehouse.db')).daily_revenue));
  });

  it('a writer that cannot get the lock in time stops with a message naming the command holding it; readers keep working', async () => {
    const dir = copy();
    writeFileSync(join(dir, 'models/slow.sql'), SLOW_MODEL);
    const before = warehouseSnapshot(join(dir, 'warehouse.db')).daily_revenue;
    // The slow run holds its publish transaction open (test hook) while the others act.
    let slowDone = false;
    // The slow run keeps its publish open until the others have acted (the file), at most 10 s.
    const done = join(dir, 'writer-may-go');
    const slow = start(['run', '-s', 'slow'], dir, { MINI_DBT_PAUSE: 'slow:stage:10000', MINI_DBT_PAUSE_UNTIL: done }).then((r) => ((slowDone = true), r));
    await new Promise((r) => setTimeout(r, 1500));
    const blocked = runCli([...NIGHT, '--busy-timeout', '50', '--project-dir', dir]);
    // Readers work while the run writes (WAL): compile, stale, history and lateness read the warehouse.
    const readers = [
      runCli(['compile', '-s', 'daily_revenue', '--project-dir', dir]),
      runCli(['stale', 'daily_revenue', '--fast', '--json', '--project-dir', dir]),
      runCli(['stale', 'daily_revenue', '--json', '--project-dir', dir]),
      runCli(['history', 'daily_revenue', '--project-dir', dir]),
      runCli(['lateness', 'raw_orders', '--json', '--project-dir', dir]),
    ];
    expect(slowDone, 'the writer finished before the readers ran: the test proves nothing').toBe(false);
    writeFileSync(done, '');
    expect((await slow).code).toBe(0);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/the warehouse .*warehouse\.db is locked by `mini-dbt run -s slow/);
    expect(blocked.stderr).toMatch(/--busy-timeout/);
    expect(readers.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
    expect(readers[0]!.stdout).toMatch(/a run now would: incremental/);
    expect(JSON.parse(readers[1]!.stdout).stale).toEqual(JSON.parse(readers[2]!.stdout).stale);
    expect(JSON.parse(readers[4]!.stdout).rows).toBe(1124);
    expect(warehouseSnapshot(join(dir, 'warehouse.db')).daily_revenue).toEqual(before);
  });
});
