import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleProject, writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * `mini-dbt lesson --yes` (issue 16): the story's walk-through on a scratch copy of the example,
 * straight through in a script. It prints the lesson's figures (incremental-story.md, "The lesson's
 * figures"), each after the real command that shows it, answers the four check-yourself questions and
 * states the rule with L = M - 1 and L = M, and leaves the learner's project untouched.
 */
describe('mini-dbt lesson', () => {
  it('walks the story on a scratch copy and reveals each figure', () => {
    const dir = exampleProject();
    const before = readdirSync(dir).sort();
    const out = runCli(['lesson', '--yes', '--project-dir', dir]);
    expect(out.code, out.stderr).toBe(0);
    const text = out.stdout;
    // No log timestamps in the narrative; every step runs a real command, shown as typed.
    expect(text).not.toMatch(/^\d\d:\d\d:\d\d /m);
    for (const command of ['$ mini-dbt seed', '$ mini-dbt lateness raw_orders', '$ mini-dbt run --full-refresh', '$ mini-dbt replay daily_revenue --from 2026-09-02 --to 2026-10-31', '$ mini-dbt test --select test_type:unit', '$ mini-dbt stale daily_revenue', '$ mini-dbt backfill daily_revenue --start 2026-09-03 --end 2026-10-26']) {
      expect(text).toContain(command);
    }
    // Finance's figure and the warehouse's.
    expect(text).toContain('2026-09: full rebuild 491 orders, 188,483.88; nightly 491 orders, 206,459.60');
    expect(text).toContain('2026-10: full rebuild 541 orders, 211,109.10; nightly 541 orders, 222,372.29');
    // Question 1: nothing errors; 41 stale days. Question 2: the upsert trap's totals. Question 3: one 54-day backfill.
    expect(text).toMatch(/Does the nightly run error, or warn, when a refund lands outside its window\? \(yes\/no\)\n {2}answer: no/);
    expect(text).toMatch(/how many of the table's days differ from a full rebuild\?\n {2}answer: 41/);
    expect(text).toContain('+=: 1,124 orders and 439,004.18 revenue; a full rebuild: 1,032 orders and 399,592.98.');
    expect(text).toMatch(/How many days does it rewrite\?\n {2}answer: 54/);
    expect(text).toContain('rewrote 54 partition(s)');
    expect(text).toContain('daily_revenue: 0 of 61 partitions stale');
    // Question 4: a feed with later refunds goes stale even with lookback 11; the rule at M - 1 and M.
    expect(text).toMatch(/On the seed-2027 feed \(longest lateness 1[34] days\), how many days end up stale with a lookback of 11\?\n {2}answer: [1-9]\d*/);
    expect(text).toMatch(/L = 10: [1-9]\d* stale days? after the replay; {2}L = 11: 0\./);
    // The learner's project: no warehouse, no target/, nothing new.
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(existsSync(join(dir, 'warehouse.db'))).toBe(false);
  });

  it('refuses a project that is not the story\'s', () => {
    const dir = writeProject({ 'project.yml': 'name: shop\n', 'models/orders.sql': 'select 1 as id\n' });
    const out = runCli(['lesson', '--yes', '--project-dir', dir]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("the lesson runs on the example project (a model 'daily_revenue' and a seed 'raw_orders')");
  });
});
