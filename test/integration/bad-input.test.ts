import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtExample } from '../support/built-example.js';
import { runCli } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const copyOfBase = builtExample();

describe('bad input at run time (the catalogue of messages is in bad-input-catalogue.test.ts)', () => {
  it('a SQL error in one model fails it (exit 1), skips its descendants and still runs the others', () => {
    const dir = copyOfBase();
    writeFileSync(join(dir, 'models/marts/daily_revenue.sql'), 'select order_date, no_such_column from {{ ref(\'raw_orders\') }}');
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const result = runCli(['run', '--project-dir', dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ERROR creating sql \w+ model main\.daily_revenue/);
    expect(result.stdout).toMatch(/Database Error in model daily_revenue \(models\/marts\/daily_revenue\.sql\)\n.*no such column: no_such_column/);
    expect(result.stdout).toMatch(/SKIP relation main\.monthly_revenue/);
    expect(result.stdout).toMatch(/OK created sql view model main\.stg_orders/);
    expect(result.stdout).toMatch(/Done\. PASS=1 WARN=0 ERROR=1 SKIP=1 TOTAL=3/);
    const after = warehouseSnapshot(join(dir, 'warehouse.db'));
    expect(after.daily_revenue).toEqual(before.daily_revenue);
    expect(after.monthly_revenue).toEqual(before.monthly_revenue);
  });

  it('a failing publish leaves no staging table behind', () => {
    const dir = copyOfBase();
    const result = runCli(['run', '--project-dir', dir, '-s', 'monthly_revenue'], { env: { MINI_DBT_INJECT_FAILURE: 'monthly_revenue:swap' } });
    expect(result.code).toBe(1);
    expect(existsSync(join(dir, 'warehouse.db'))).toBe(true);
    const after = warehouseSnapshot(join(dir, 'warehouse.db')) as { schema: { name: string }[] };
    expect(after.schema.map((o) => o.name)).not.toContain('monthly_revenue__mini_dbt_tmp');
  });
});
