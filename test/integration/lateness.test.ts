import { beforeAll, describe, expect, it } from 'vitest';
import { lateness, loadSession, run } from '../../src/index.js';
import { generateFeed } from '../../src/feed/generate-feed.js';
import { exampleProject, writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

describe('lateness', () => {
  let dir: string;
  beforeAll(async () => {
    dir = exampleProject();
    await run({ session: loadSession({ projectDir: dir }), command: 'seed', writeArtifacts: false });
  });

  it('CLI: the histogram as bars, percentiles, what lookback 3 misses by status, the required lookback', () => {
    const r = runCli(['lateness', 'raw_orders', '--by', 'status', '--project-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Lateness of raw_orders: load_date - order_date, in days \(1124 rows\)/);
    expect(r.stdout).toMatch(/^ +0 +840 +█{40}$/m);
    expect(r.stdout).toMatch(/^ +11 +1 +▏$/m);
    expect(r.stdout).toMatch(/-- lookback 3: rows below land after the last night that rewrites their day --/);
    expect(r.stdout).toMatch(/percentiles \(days late\): p50 0 {2}p90 2 {2}p95 5 {2}p99 9 {2}max 11/);
    expect(r.stdout).toMatch(/a lookback of 3 day\(s\) misses 66 row\(s\) \(5\.9% of rows\) on 41 day\(s\); by status: refunded 66/);
    expect(r.stdout).toMatch(/required lookback: 11 day\(s\)/);
  });

  it('CLI --json has the documented shape; --lookback overrides the project var', () => {
    const r = runCli(['lateness', 'raw_orders', '--json', '--lookback', '9', '--project-dir', dir]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ rows: 1124, max_days: 11, required_lookback: 11, percentiles: { p50: 0, p90: 2, p95: 5, p99: 9, max: 11 }, missed: { lookback: 9, rows: 4 } });
    expect(json.histogram[0]).toEqual({ days: 0, rows: 840 });
    expect(json.histogram).toHaveLength(12);
  });

  it('API on the second feed: max lateness 14; flags override the yml columns', async () => {
    const d = exampleProject(generateFeed({ seed: 2027 }));
    const session = loadSession({ projectDir: d });
    await run({ session, command: 'seed', writeArtifacts: false });
    const report = lateness({ session, name: 'raw_orders' });
    expect(report).toMatchObject({ max_days: 14, required_lookback: 14, missed: { lookback: 3 } });
    // Measured against another column the lateness is 0 everywhere.
    expect(lateness({ session, name: 'raw_orders', eventTime: 'load_date' }).max_days).toBe(0);
  });

  it('errors: unknown name with did-you-mean, a model, missing declarations, a bad --lookback', () => {
    const typo = runCli(['lateness', 'raw_order', '--project-dir', dir]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/no seed or source named 'raw_order'\. Did you mean 'raw_orders'\?/);
    const model = runCli(['lateness', 'daily_revenue', '--project-dir', dir]);
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/'daily_revenue' is a model/);
    expect(runCli(['lateness', 'raw_orders', '--lookback', '-1', '--project-dir', dir]).stderr).toMatch(/--lookback must be a whole number/);
    const bare = writeProject({ 'project.yml': 'name: bare\n', 'seeds/feed.csv': 'a,b\n2026-09-01,2026-09-02\n' });
    expect(runCli(['seed', '--project-dir', bare]).code).toBe(0);
    const undeclared = runCli(['lateness', 'feed', '--project-dir', bare]);
    expect(undeclared.code).toBe(2);
    expect(undeclared.stderr).toMatch(/seed 'feed' does not declare event_time and loaded_at/);
    const flagged = runCli(['lateness', 'feed', '--event-time', 'a', '--loaded-at', 'b', '--json', '--project-dir', bare]);
    expect(JSON.parse(flagged.stdout)).toMatchObject({ rows: 1, max_days: 1 });
  });

  it('reads event_time / loaded_at declared at table level on a source', async () => {
    const d = writeProject({
      'project.yml': 'name: src\n',
      'models/sources.yml': 'version: 2\nsources:\n  - name: shop\n    tables:\n      - name: orders\n        event_time: day\n        loaded_at: landed\n',
      'models/copy.sql': "select * from {{ source('shop', 'orders') }}",
    });
    const session = loadSession({ projectDir: d });
    const { openWarehouse } = await import('../../src/index.js');
    const db = openWarehouse(session.project.databasePath);
    db.exec("create table orders (day text, landed text); insert into orders values ('2026-09-01', '2026-09-05'), ('2026-09-02', '2026-09-02')");
    db.close();
    expect(lateness({ session, name: 'orders' })).toMatchObject({ name: 'shop.orders', rows: 2, max_days: 4, missed: { lookback: 0, rows: 1 } });
    expect(lateness({ session, name: 'shop.orders', lookback: 4 }).missed.rows).toBe(0);
  });

  it('reads event_time / loaded_at declared at table level on a seed', async () => {
    const d = writeProject({
      'project.yml': 'name: seeded\n',
      'seeds/feed.csv': 'a,b\n2026-09-01,2026-09-04\n',
      'seeds/feed.yml': 'version: 2\nseeds:\n  - name: feed\n    event_time: a\n    loaded_at: b\n',
    });
    const session = loadSession({ projectDir: d });
    await run({ session, command: 'seed', writeArtifacts: false });
    expect(lateness({ session, name: 'feed' })).toMatchObject({ event_time: 'a', loaded_at: 'b', max_days: 3 });
  });
});
