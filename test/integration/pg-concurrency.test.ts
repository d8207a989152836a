import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli, runCliAsync } from '../support/run-cli.js';
import { connectPg, describePg, freshPgDatabase, withPgClient, writePgProfiles, type PgTestTarget } from '../support/pg-test-database.js';

/**
 * Issue 17, concurrency the PostgreSQL way: `--threads N` runs N
 * independent nodes at once (a pool of threads, each with its own
 * connection); a publish locks only its relation, so two runs on different
 * models proceed side by side and two runs of one model take turns.
 */

/** A table model that sleeps `seconds` on the server and yields one row. */
const sleeper = (n: number, seconds: number): string => `select ${n} as n, pg_sleep(${seconds})::text as slept`;

interface RunResultRow {
  unique_id: string;
  status: string;
  message: string | null;
  timing: { name: string; started_at: string; completed_at: string }[];
}

function project(place: PgTestTarget, models: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-pg-threads-'));
  mkdirSync(join(dir, 'models'));
  writeFileSync(join(dir, 'project.yml'), 'name: threads\nprofile: threads\nmodels:\n  +materialized: table\n');
  writePgProfiles(dir, place, { profile: 'threads' });
  for (const [name, sql] of Object.entries(models)) writeFileSync(join(dir, 'models', `${name}.sql`), sql);
  return dir;
}

function cli(dir: string, ...args: string[]) {
  return runCli([...args, '--project-dir', dir, '--profiles-dir', dir]);
}

function runResults(dir: string): RunResultRow[] {
  return (JSON.parse(readFileSync(join(dir, 'target', 'run_results.json'), 'utf8')) as { results: RunResultRow[] }).results;
}

/** A node's [start, end] in ms, from run_results.json's execute timing. */
function span(r: RunResultRow): [number, number] {
  const t = r.timing.find((x) => x.name === 'execute') ?? r.timing[r.timing.length - 1]!;
  return [Date.parse(t.started_at), Date.parse(t.completed_at)];
}

async function ledger(place: PgTestTarget, model: string): Promise<{ invocation_id: string; status: string; started_at: string; completed_at: string; message: string | null }[]> {
  return withPgClient(async (c) => (await c.query('select invocation_id, status, started_at, completed_at, message from _mini_dbt_node_runs where model = $1 order by id', [model])).rows, place);
}

describePg('--threads on PostgreSQL', () => {
  let place: PgTestTarget;
  const dirs: string[] = [];

  beforeAll(async () => {
    place = await freshPgDatabase('threads');
  });
  afterAll(async () => {
    await place?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('--threads 4 runs 4 independent slow models at once, each right; their dependant starts after them', async () => {
    const dir = project(place, {
      slow_1: sleeper(1, 0.8), slow_2: sleeper(2, 0.8), slow_3: sleeper(3, 0.8), slow_4: sleeper(4, 0.8),
      total: "select sum(n) as total from (select n from {{ ref('slow_1') }} union all select n from {{ ref('slow_2') }} union all select n from {{ ref('slow_3') }} union all select n from {{ ref('slow_4') }}) x",
    });
    dirs.push(dir);
    const out = cli(dir, 'run', '--threads', '4');
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toMatch(/PASS=5 WARN=0 ERROR=0 SKIP=0 TOTAL=5/);
    const results = runResults(dir);
    const slow = results.filter((r) => /slow_/.test(r.unique_id)).map(span);
    expect(slow).toHaveLength(4);
    // All four were running at one moment: each started before any ended.
    const lastStart = Math.max(...slow.map(([s]) => s));
    const firstEnd = Math.min(...slow.map(([, e]) => e));
    expect(lastStart).toBeLessThan(firstEnd);
    // Together they took about one sleep, not four (3.2 s one after another).
    const wall = Math.max(...slow.map(([, e]) => e)) - Math.min(...slow.map(([s]) => s));
    expect(wall).toBeLessThan(2000);
    // run_results names the thread each ran on, as dbt's does: four threads for the four at once.
    expect(new Set(results.filter((r) => /slow_/.test(r.unique_id)).map((r) => (r as { thread_id?: string }).thread_id))).toEqual(new Set(['Thread-1', 'Thread-2', 'Thread-3', 'Thread-4']));
    const [totalStart] = span(results.find((r) => r.unique_id.endsWith('.total'))!);
    expect(totalStart).toBeGreaterThanOrEqual(Math.max(...slow.map(([, e]) => e)));
    const rows = await withPgClient(async (c) => ({
      slow: (await c.query('select n from slow_1 union all select n from slow_2 union all select n from slow_3 union all select n from slow_4 order by n')).rows.map((r) => Number(r.n)),
      total: Number((await c.query('select total from total')).rows[0].total),
    }), place);
    expect(rows).toEqual({ slow: [1, 2, 3, 4], total: 10 });
    // START lines for all four before the first result line: dbt's progress in completion order.
    const lines = out.stdout.split('\n');
    const firstOk = lines.findIndex((l) => / OK created /.test(l));
    expect(lines.slice(0, firstOk).filter((l) => /START sql table model public\.slow_/.test(l))).toHaveLength(4);
  });

  it('a failing node skips only its own downstream; the independent nodes still run', async () => {
    const dir = project(place, {
      broken: 'select * from no_such_table',
      after_broken: "select * from {{ ref('broken') }}",
      after_after: "select * from {{ ref('after_broken') }}",
      fine_a: sleeper(1, 0.3), fine_b: sleeper(2, 0.3),
      after_fine: "select n from {{ ref('fine_a') }} union all select n from {{ ref('fine_b') }}",
    });
    dirs.push(dir);
    const out = cli(dir, 'run', '--threads', '3');
    expect(out.code).toBe(1);
    const status = Object.fromEntries(runResults(dir).map((r) => [r.unique_id.split('.').pop(), r.status]));
    expect(status).toEqual({ broken: 'error', after_broken: 'skipped', after_after: 'skipped', fine_a: 'success', fine_b: 'success', after_fine: 'success' });
    expect(out.stdout).toMatch(/PASS=3 WARN=0 ERROR=1 SKIP=2 TOTAL=6/);
    const n = await withPgClient(async (c) => (await c.query('select count(*)::int as n from after_fine')).rows[0].n, place);
    expect(n).toBe(2);
  });

  // The four cases below wait on the server (pg_sleep) most of their time, and prove nothing about each other's
  // timing: they run at once (vitest's concurrent), each on models of its own (the lock case on a database of its
  // own, as it watches the database's advisory locks), so the file waits for the longest of them, not their sum.
  it.concurrent('two CLI runs on different models at once both succeed, and their publishes overlap in time', async ({ expect }) => {
    const dir = project(place, { west: sleeper(1, 2), east: sleeper(2, 2) });
    dirs.push(dir);
    const [a, b] = await Promise.all([
      runCliAsync(['run', '-s', 'west', '--project-dir', dir, '--profiles-dir', dir]),
      runCliAsync(['run', '-s', 'east', '--project-dir', dir, '--profiles-dir', dir]),
    ]);
    expect([a.code, b.code], a.stdout + a.stderr + b.stdout + b.stderr).toEqual([0, 0]);
    const [west] = await ledger(place, 'west');
    const [east] = await ledger(place, 'east');
    expect([west!.status, east!.status]).toEqual(['success', 'success']);
    // Each started before the other finished: neither waited for the other's run.
    expect(Date.parse(west!.started_at)).toBeLessThan(Date.parse(east!.completed_at));
    expect(Date.parse(east!.started_at)).toBeLessThan(Date.parse(west!.completed_at));
    const rows = await withPgClient(async (c) => (await c.query('select n from west union all select n from east order by n')).rows.map((r) => Number(r.n)), place);
    expect(rows).toEqual([1, 2]);
  });

  it.concurrent('two first runs at once on a new database both succeed: they take turns to create the ledger', async ({ expect }) => {
    const fresh = await freshPgDatabase('first_runs');
    try {
      const dir = project(fresh, { north: sleeper(1, 0.2), south: sleeper(2, 0.2) });
      dirs.push(dir);
      const [a, b] = await Promise.all([
        runCliAsync(['run', '-s', 'north', '--project-dir', dir, '--profiles-dir', dir]),
        runCliAsync(['run', '-s', 'south', '--project-dir', dir, '--profiles-dir', dir]),
      ]);
      expect([a.code, b.code], a.stdout + a.stderr + b.stdout + b.stderr).toEqual([0, 0]);
      const runs = await withPgClient(async (c) => (await c.query("select count(*)::int as n from _mini_dbt_runs where status = 'success'")).rows[0].n, fresh);
      expect(runs).toBe(2);
    } finally {
      await fresh.drop();
    }
  });

  it.concurrent('two runs of the same model take turns: both succeed, one publish after the other', async ({ expect }) => {
    const dir = project(place, { same: sleeper(7, 1.5) });
    dirs.push(dir);
    const [a, b] = await Promise.all([
      runCliAsync(['run', '-s', 'same', '--project-dir', dir, '--profiles-dir', dir]),
      runCliAsync(['run', '-s', 'same', '--project-dir', dir, '--profiles-dir', dir]),
    ]);
    expect([a.code, b.code], a.stdout + a.stderr + b.stdout + b.stderr).toEqual([0, 0]);
    const runs = await ledger(place, 'same');
    expect(runs.map((r) => r.status)).toEqual(['success', 'success']);
    // The second publish (1.5 s of work) began only after the first committed.
    const ends = runs.map((r) => Date.parse(r.completed_at)).sort((x, y) => x - y);
    expect(ends[1]! - ends[0]!).toBeGreaterThanOrEqual(1400);
    const rows = await withPgClient(async (c) => (await c.query('select n from same')).rows.map((r) => Number(r.n)), place);
    expect(rows).toEqual([7]);
  });

  it.concurrent('a run that cannot have the model\'s lock within --busy-timeout fails that node (exit 1), naming the run holding it; its other nodes run', async ({ expect }) => {
    const own = await freshPgDatabase('lock_held');
    try {
      const dir = project(own, { held: sleeper(1, 3), other: 'select 1 as n' });
      dirs.push(dir);
      const holder = runCliAsync(['run', '-s', 'held', '--project-dir', dir, '--profiles-dir', dir]);
      // Wait until the holder's publish has the lock (its node run is under way on the server).
      const deadline = Date.now() + 15_000;
      for (;;) {
        const waiting = await withPgClient(async (c) => (await c.query("select count(*)::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())")).rows[0].n, own);
        if (waiting > 0) break;
        if (Date.now() > deadline) throw new Error('the holder never took its lock');
        await new Promise((r) => setTimeout(r, 100));
      }
      // Not blocking this worker's event loop (runCli would): the other cases run meanwhile.
      const blocked = await runCliAsync(['run', '-s', 'held', 'other', '--busy-timeout', '200', '--project-dir', dir, '--profiles-dir', dir]);
      expect(blocked.code).toBe(1);
      expect(blocked.stdout).toMatch(/"public"\."held" is being published by `mini-dbt run -s held --project-dir [^`]*` \(invocation [0-9a-f-]{36}, started [^)]*, pid \d+\) \[server session \d+, user [^\]]*\]; gave up waiting for it after 200 ms/);
      expect(blocked.stdout).toMatch(/PASS=1 WARN=0 ERROR=1 SKIP=0 TOTAL=2/);
      expect((await holder).code).toBe(0);
      const runs = await ledger(own, 'held');
      expect(runs.map((r) => r.status).sort()).toEqual(['error', 'success']);
    } finally {
      await own.drop();
    }
  });

  // Concurrent too (each on a database of its own): they run alongside the four cases above.
  describe.concurrent('the example project built with --threads 4 on PostgreSQL', () => {
    let place: PgTestTarget;
    let dir: string;
    beforeAll(async () => {
      place = await freshPgDatabase('example_threads');
      dir = exampleProject();
      appendFileSync(join(dir, 'project.yml'), 'profile: brightcart\n');
      writePgProfiles(dir, place, { profile: 'brightcart', threads: 4 });
    });
    afterAll(async () => {
      await place?.drop();
    });

    it('builds every node (seed, views, tables, incremental, unit and data tests) with the totals of a sequential build, and writes every artifact', async ({ expect }) => {
      // Not blocking this worker's event loop (runCli would): the other cases run meanwhile.
      const out = await runCliAsync(['build', '--project-dir', dir, '--profiles-dir', dir]);
      expect(out.code, out.stdout + out.stderr).toBe(0);
      expect(out.stdout).toMatch(/PASS=13 WARN=0 ERROR=0 SKIP=0 TOTAL=13/);
      const months = await withPgClient(async (c) => (await c.query('select month, orders, revenue::text as revenue from public.monthly_revenue order by month')).rows, place);
      expect(months).toEqual([
        { month: '2026-09', orders: '491', revenue: '188483.88' },
        { month: '2026-10', orders: '541', revenue: '211109.10' },
      ]);
      // The unit test ran before its model, each data test after the node it tests, the mart after its tests.
      const results = runResults(dir);
      expect(results).toHaveLength(13);
      const at = (suffix: string) => {
        const found = results.find((r) => r.unique_id.endsWith(suffix) || r.unique_id.includes(`.${suffix}.`));
        if (!found) throw new Error(`no result ends with ${suffix}: ${results.map((r) => r.unique_id).join(', ')}`);
        return span(found);
      };
      expect(at('.daily_revenue')[0]).toBeGreaterThanOrEqual(at('late_refund_outside_the_window_is_not_applied')[1]);
      expect(at('.monthly_revenue')[0]).toBeGreaterThanOrEqual(at('unique_daily_revenue_order_date')[1]);
      // Each model's compiled and run SQL, as a sequential build writes them.
      for (const model of ['stg_orders', 'daily_revenue', 'monthly_revenue']) {
        expect(readdirSync(join(dir, 'target', 'run', 'brightcart', 'models'), { recursive: true }).map(String).some((f) => f.endsWith(`${model}.sql`)), model).toBe(true);
      }
      const ledger = await withPgClient(async (c) => (await c.query("select count(*)::int as n from _mini_dbt_node_runs where status = 'success'")).rows[0].n, place);
      expect(ledger).toBe(4);
    });
  });

  describe.concurrent('a lock past the busy timeout on PostgreSQL', () => {
    let place: PgTestTarget;
    beforeAll(async () => {
      place = await freshPgDatabase('lock_wait');
    });
    afterAll(async () => {
      await place?.drop();
    });

    it('a statement that waits longer than --busy-timeout for another session\'s lock fails its node (exit 1); the independent node is built', async ({ expect }) => {
      const dir = project(place, { reader: "select count(*) as n from {{ source('raw', 'locked') }}", free: 'select 1 as n' });
      writeFileSync(join(dir, 'models', 'sources.yml'), 'sources:\n  - name: raw\n    schema: public\n    tables:\n      - name: locked\n');
      await withPgClient((c) => c.query('create table locked (n int)'), place);
      const holder = await connectPg(place);
      try {
        await holder.query('begin');
        await holder.query('lock table locked in access exclusive mode');
        const out = await runCliAsync(['run', '--busy-timeout', '300', '--project-dir', dir, '--profiles-dir', dir]);
        expect(out.code, out.stdout + out.stderr).toBe(1);
        expect(out.stdout).toMatch(/waited 300 ms for a lock held by another session, then gave up \(canceling statement due to lock timeout\)/);
        expect(out.stdout).toMatch(/PASS=1 WARN=0 ERROR=1 SKIP=0 TOTAL=2/);
      } finally {
        await holder.query('rollback');
        await holder.end();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});

describe('--threads on SQLite', () => {
  it('says once that SQLite has one writer, and runs the nodes one at a time as before', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-sqlite-threads-'));
    try {
      mkdirSync(join(dir, 'models'));
      writeFileSync(join(dir, 'project.yml'), 'name: threads\ndatabase: warehouse.db\nmodels:\n  +materialized: table\n');
      writeFileSync(join(dir, 'models', 'a.sql'), 'select 1 as n');
      writeFileSync(join(dir, 'models', 'b.sql'), 'select 2 as n');
      const out = runCli(['run', '--threads', '4', '--project-dir', dir]);
      expect(out.code, out.stdout + out.stderr).toBe(0);
      expect(out.stdout.match(/--threads 4: the sqlite engine has one writer, so nodes run one at a time/g)).toHaveLength(1);
      // One after another: the second starts after the first ended.
      const lines = out.stdout.split('\n').filter((l) => /START|OK created/.test(l)).map((l) => l.replace(/^\S+\s+/, '').slice(0, 20));
      expect(lines).toEqual(['1 of 2 START sql tab', '1 of 2 OK created sq', '2 of 2 START sql tab', '2 of 2 OK created sq']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
