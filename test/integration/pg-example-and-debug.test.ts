import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { describePg, freshPgDatabase, withPgClient, writePgProfiles, type PgTestTarget } from '../support/pg-test-database.js';

/**
 * Issue 17: a `type: postgres` profile output selects the PostgreSQL engine,
 * `mini-dbt debug` tests its connection, and the example project builds there
 * unchanged, with the same totals as on SQLite, to the cent.
 */
describePg('the example project on PostgreSQL, through a profile', () => {
  let place: PgTestTarget;
  let dir: string;

  beforeAll(async () => {
    place = await freshPgDatabase('example');
    dir = exampleProject();
    appendFileSync(`${dir}/project.yml`, 'profile: brightcart\n');
    writePgProfiles(dir, place, { profile: 'brightcart', passwordEnvVar: 'MINI_DBT_TEST_PG_PASSWORD' });
  });
  afterAll(async () => {
    await place?.drop();
  });

  it('debug names the server, database and user, never the password, and connects', () => {
    const out = runCli(['debug', '--project-dir', dir, '--profiles-dir', dir]);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toContain('type: postgres');
    expect(out.stdout).toContain(`host: ${place.host}`);
    expect(out.stdout).toContain(`port: ${place.port}`);
    expect(out.stdout).toContain(`database: ${place.database}`);
    expect(out.stdout).toMatch(/Connection test: \[OK connection ok\]/);
    expect(out.stdout + out.stderr).not.toContain(place.password);
  });

  it('build --target pg builds every node, and the month totals are the spec\'s to the cent', async () => {
    const out = runCli(['build', '--target', 'pg', '--project-dir', dir, '--profiles-dir', dir]);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toMatch(/PASS=13 WARN=0 ERROR=0 SKIP=0 TOTAL=13/);
    const months = await withPgClient(async (c) => (await c.query('select month, orders, revenue::text as revenue from public.monthly_revenue order by month')).rows, place);
    expect(months).toEqual([
      { month: '2026-09', orders: '491', revenue: '188483.88' },
      { month: '2026-10', orders: '541', revenue: '211109.10' },
    ]);
    // The amounts are exact: numeric(12,2), not PostgreSQL's 4-byte real.
    const types = await withPgClient(async (c) => (await c.query(`select table_name, data_type, numeric_precision, numeric_scale from information_schema.columns where column_name = 'amount' and table_schema = 'public' order by table_name`)).rows, place);
    expect(types).toEqual([
      { table_name: 'raw_orders', data_type: 'numeric', numeric_precision: 12, numeric_scale: 2 },
      { table_name: 'stg_orders', data_type: 'numeric', numeric_precision: 12, numeric_scale: 2 },
    ]);
  });

  it('a nightly run rewrites the lookback window only, and running it twice gives the same table', async () => {
    const night = ['run', '--target', 'pg', '--select', 'daily_revenue', '--vars', '{as_of: 2026-10-20}', '--project-dir', dir, '--profiles-dir', dir];
    const first = runCli(night);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/DELETE 4, INSERT 4/);
    const read = () => withPgClient(async (c) => (await c.query('select order_date, orders, revenue::text as revenue from public.daily_revenue order by order_date')).rows, place);
    const once = await read();
    expect(runCli(night).code).toBe(0);
    expect(await read()).toEqual(once);
    expect(once).toHaveLength(61);
  });
});
