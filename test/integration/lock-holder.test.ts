import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtExample } from '../support/built-example.js';
import { runCli, runCliAsync, type CliResult } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const copy = builtExample();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A plain process (not mini-dbt) holding the write lock until killed. */
async function holdLock(db: string): Promise<() => void> {
  const ready = `${db}.held`;
  const script = `const D=require(${JSON.stringify(join(process.cwd(), 'node_modules/better-sqlite3'))});const d=new D(${JSON.stringify(db)});d.exec('BEGIN IMMEDIATE');require('fs').writeFileSync(${JSON.stringify(ready)},'1');setTimeout(()=>{},60000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  for (let i = 0; i < 500 && !existsSync(ready); i++) await sleep(20);
  return () => {
    child.kill('SIGKILL');
    rmSync(ready, { force: true });
  };
}

/** The CLI, started without waiting, timed. */
async function start(args: readonly string[], dir: string, env: Record<string, string> = {}): Promise<CliResult & { ms: number }> {
  const t0 = performance.now();
  const result = await runCliAsync([...args, '--project-dir', dir], { env });
  return { ...result, ms: performance.now() - t0 };
}

const runningRows = (db: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("select command_line, pid from _mini_dbt_runs where status = 'running'").all() as { command_line: string; pid: number | null }[];
  } finally {
    d.close();
  }
};

describe('the warehouse lock: the wait asked for, and a holder named only when it is alive', () => {
  it("a run that crashed leaves a 'running' row; it is not named as the holder of a lock it cannot hold", async () => {
    const dir = copy();
    const db = join(dir, 'warehouse.db');
    const crashed = runCli(['run', '-s', 'daily_revenue', '--project-dir', dir], { env: { MINI_DBT_CRASH_AT: '1' } });
    expect(crashed.code).not.toBe(0);
    expect(runningRows(db)).toEqual([{ command_line: `mini-dbt run -s daily_revenue --project-dir ${dir}`, pid: expect.any(Number) }]);
    const before = warehouseSnapshot(db);
    const release = await holdLock(db);
    try {
      const blocked = await start(['run', '-s', 'daily_revenue', '--busy-timeout', '100'], dir);
      expect(blocked.code).toBe(2);
      expect(blocked.stderr).toContain(`Error: the warehouse ${db} is locked by another process; gave up after waiting 100 ms`);
      expect(blocked.stderr).not.toContain('mini-dbt run -s daily_revenue');
    } finally {
      release();
    }
    expect(warehouseSnapshot(db)).toEqual(before);
  });

  it('backfill honours --busy-timeout (not the 5 s default) and names the live mini-dbt run holding the lock, with its pid', async () => {
    const dir = copy();
    const db = join(dir, 'warehouse.db');
    // The holder keeps its publish open until the test has its answer (the file), at most 6 s.
    const done = join(dir, 'holder-may-go');
    const holder = start(['run', '-s', 'monthly_revenue'], dir, { MINI_DBT_PAUSE: 'monthly_revenue:stage:6000', MINI_DBT_PAUSE_UNTIL: done });
    for (let i = 0; i < 250 && runningRows(db).length === 0; i++) await sleep(20);
    await sleep(300);
    const [{ pid }] = runningRows(db) as [{ pid: number }];
    const blocked = await start(['backfill', 'daily_revenue', '--start', '2026-10-01', '--end', '2026-10-05', '--reason', 'test', '--busy-timeout', '100'], dir);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(new RegExp(`is locked by \`mini-dbt run -s monthly_revenue --project-dir [^\`]+\` \\(invocation [\\w-]+, started [^,]+, pid ${pid}\\); gave up after waiting 100 ms`));
    expect(blocked.ms).toBeLessThan(4000);
    writeFileSync(done, '');
    expect((await holder).code).toBe(0);
  });
});
