import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const SHOP = {
  'project.yml': 'name: shop\nmodels:\n  +materialized: table\n',
  'seeds/raw_orders.csv': 'id,customer,status,amount\n1,a,placed,10\n2,b,shipped,20\n3,b,weird,30\n3,c,placed,5\n4,,placed,7\n',
  'models/orders.sql': "select * from {{ ref('raw_orders') }}",
  'models/order_totals.sql': "select customer, sum(amount) as amount from {{ ref('orders') }} group by customer",
  'models/customers.sql': "{{ config(materialized='view') }}select distinct customer from {{ ref('raw_orders') }} where customer is not null",
  'models/schema.yml': `version: 2
models:
  - name: orders
    columns:
      - name: id
        data_tests:
          - unique:
              config:
                store_failures: true
      - name: status
        data_tests:
          - accepted_values:
              values: [placed, shipped]
              warn_if: ">0"
              error_if: ">5"
      - name: customer
        data_tests:
          - not_null:
              where: "amount > 8"
  - name: customers
    columns:
      - name: customer
        tests: [unique]
`,
};

describe('data tests through the CLI', () => {
  const dir = writeProject(SHOP);
  const cli = (...args: string[]) => runCli([...args, '--project-dir', dir]);

  it('build: a FAIL skips the descendants of the tested model, a WARN does not, and the summary counts each', () => {
    const r = cli('build');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL 1 unique_orders_id \.+ \[FAIL 1 in \d+\.\d\ds\]/);
    expect(r.stdout).toMatch(/WARN 1 accepted_values_orders_status__placed__shipped \.+ \[WARN 1 in/);
    expect(r.stdout).toMatch(/PASS not_null_orders_customer \.+ \[PASS in/);
    expect(r.stdout).toMatch(/SKIP relation main\.order_totals \.+ \[SKIP\]/);
    expect(r.stdout).toMatch(/PASS unique_customers_customer/);
    expect(r.stdout).toContain('Completed with 1 error, 0 partial successes, and 1 warning:');
    expect(r.stdout).toContain('Failure in test unique_orders_id (models/schema.yml)');
    expect(r.stdout).toContain('Got 1 result, configured to fail if != 0');
    expect(r.stdout).toContain('compiled code at target/compiled/shop/models/schema.yml/unique_orders_id.sql');
    expect(r.stdout).toContain('select * from "dbt_test__audit__unique_orders_id"');
    expect(r.stdout).toContain('Warning in test accepted_values_orders_status__placed__shipped (models/schema.yml)');
    expect(r.stdout).toContain('Got 1 result, configured to warn if > 0');
    expect(r.stdout).toMatch(/Done\. PASS=5 WARN=1 ERROR=1 SKIP=1 TOTAL=8/);
    expect(tableRows(dir, 'dbt_test__audit__unique_orders_id')).toEqual([{ unique_field: 3, n_records: 2 }]);
  });

  it('test: only tests, selected through the models they test (indirect selection), exit 1 on FAIL', () => {
    const r = cli('test', '--select', 'orders');
    expect(r.code).toBe(1);
    expect([...r.stdout.matchAll(/\d of (\d) (PASS|WARN \d|FAIL \d) (\w+)/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`)).toEqual([
      '3 WARN 1 accepted_values_orders_status__placed__shipped',
      '3 PASS not_null_orders_customer',
      '3 FAIL 1 unique_orders_id',
    ]);
    expect(r.stdout).toMatch(/Finished running 3 data tests in/);
    const ok = cli('test', '--select', 'customers');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Done\. PASS=1 WARN=0 ERROR=0 SKIP=0 TOTAL=1/);
  });

  it('limit, where and severity: warn', () => {
    writeFileSync(join(dir, 'models/more.yml'), `version: 2
models:
  - name: order_totals
    data_tests:
      - not_null:
          column_name: customer
          severity: warn
          limit: 1
`);
    expect(cli('run', '--select', 'order_totals').code).toBe(0);
    const r = cli('test', '--select', 'order_totals');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/WARN 1 not_null_order_totals_customer/);
  });

  it('ls lists tests with --resource-type and --output name|path|json', () => {
    const names = cli('ls', '--select', 'customers', '--resource-type', 'test', '--output', 'name');
    expect(names.stdout.trim().split('\n')).toEqual(['unique_customers_customer']);
    const paths = cli('ls', '--select', 'customers', '--resource-type', 'test', '--output', 'path');
    expect(paths.stdout.trim()).toBe('models/schema.yml');
    const json = cli('ls', '--resource-type', 'test', '--output', 'json').stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(json.map((n) => n.name)).toContain('unique_orders_id');
    expect(json.find((n) => n.name === 'unique_orders_id')).toMatchObject({ resource_type: 'test', depends_on: { nodes: ['model.shop.orders'] } });
    const all = cli('ls', '--output', 'name').stdout.trim().split('\n');
    expect(all).toEqual(expect.arrayContaining(['raw_orders', 'orders', 'unique_orders_id', 'not_null_order_totals_customer']));
  });

  it('an unknown test names the alternatives', () => {
    const bad = writeProject({ ...SHOP, 'models/schema.yml': 'models:\n  - name: orders\n    columns:\n      - name: id\n        tests: [uniqe]\n' });
    const r = runCli(['ls', '--project-dir', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown test 'uniqe' on orders.id");
    expect(r.stderr).toContain("Did you mean 'unique'?");
  });
});

describe('--warn-error: warnings are failures', () => {
  it('a test that would WARN fails (its descendants are skipped, exit 1), and a warn audit stops its publish', () => {
    const dir = writeProject({
      'project.yml': 'name: strict\nmodels:\n  +materialized: table\n',
      'seeds/raw.csv': 'id,status\n1,placed\n2,lost\n',
      'models/orders.sql': "select * from {{ ref('raw') }}",
      'models/order_count.sql': "select count(*) as n from {{ ref('orders') }}",
      'models/schema.yml': 'models:\n  - name: orders\n    columns:\n      - name: status\n        data_tests:\n          - accepted_values:\n              values: [placed]\n              severity: warn\n',
    });
    const cli = (...args: string[]) => runCli([...args, '--project-dir', dir]);
    const lenient = cli('build');
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/WARN 1 accepted_values_orders_status__placed/);
    expect(lenient.stdout).toMatch(/Done\. PASS=3 WARN=1 ERROR=0 SKIP=0 TOTAL=4/);

    const strict = cli('build', '--warn-error');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/FAIL 1 accepted_values_orders_status__placed/);
    expect(strict.stdout).toContain('Got 1 result, configured to warn if != 0 (a failure under --warn-error)');
    expect(strict.stdout).toMatch(/SKIP relation main\.order_count/);
    expect(strict.stdout).toMatch(/Done\. PASS=2 WARN=0 ERROR=1 SKIP=1 TOTAL=4/);
    expect(cli('test', '--warn-error').code).toBe(1);

    // The same test as an audit: it warns and publishes; under --warn-error the publish is rolled back.
    writeFileSync(join(dir, 'models/schema.yml'), 'models:\n  - name: orders\n    columns:\n      - name: status\n        data_tests:\n          - accepted_values:\n              values: [placed]\n              config: {audit: true, severity: warn}\n');
    writeFileSync(join(dir, 'seeds/raw.csv'), 'id,status\n1,placed\n2,lost\n3,lost\n');
    expect(cli('seed').code).toBe(0);
    const before = tableRows(dir, 'orders');
    const refused = cli('run', '--select', 'orders', '--warn-error');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('audit accepted_values_orders_status__placed failed before publish: 1 failing row (configured to warn if != 0, a failure under --warn-error)');
    expect(tableRows(dir, 'orders')).toEqual(before);
    const warned = cli('run', '--select', 'orders');
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain('published anyway');
    expect(tableRows(dir, 'orders')).toHaveLength(3);
  });
});

describe('audits: tests that must pass before a publish commits (write-audit-publish)', () => {
  it('a failing audit: true test rolls the publish back and names the failing rows', () => {
    const dir = writeProject({
      'project.yml': 'name: audited\n',
      'seeds/raw.csv': 'id,customer\n1,a\n2,b\n',
      'models/clean.sql': "{{ config(materialized='table') }}select * from {{ ref('raw') }}",
      'models/schema.yml': 'models:\n  - name: clean\n    columns:\n      - name: customer\n        data_tests:\n          - not_null:\n              config: {audit: true}\n',
    });
    const cli = (...args: string[]) => runCli([...args, '--project-dir', dir]);
    expect(cli('build').code).toBe(0);
    writeFileSync(join(dir, 'seeds/raw.csv'), 'id,customer\n1,a\n2,b\n3,\n4,\n');
    expect(cli('seed').code).toBe(0);
    const before = warehouseSnapshot(join(dir, 'warehouse.db'));
    const r = cli('run');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ERROR creating sql table model main\.clean/);
    expect(r.stdout).toContain('audit not_null_clean_customer failed before publish: 2 failing rows');
    expect(r.stdout).toContain('nothing was published, "clean" is exactly as it was');
    expect(r.stdout).toContain('id=3, customer=NULL');
    expect(r.stdout).toContain('id=4, customer=NULL');
    expect(warehouseSnapshot(join(dir, 'warehouse.db'))).toEqual(before);
    expect(tableRows(dir, 'clean')).toHaveLength(2);
  });

  it('during a backfill every test of the incremental model audits the publish', () => {
    const dir = writeProject({
      'project.yml': 'name: backfilled\n',
      'seeds/raw.csv': 'day,amount\n2024-01-01,1\n2024-01-02,2\n',
      'models/daily.sql': `{{ config(materialized='incremental', unique_key='day', partition_by='day') }}
select day, sum(amount) as amount, count(*) as n from {{ ref('raw') }}
{% if is_incremental() %}where day between '{{ var('start') }}' and '{{ var('end') }}'{% endif %}
group by day`,
      'models/schema.yml': 'models:\n  - name: daily\n    columns:\n      - name: n\n        data_tests:\n          - accepted_values: {values: [1], quote: false}\n',
    });
    const cli = (...args: string[]) => runCli([...args, '--project-dir', dir]);
    expect(cli('build').code).toBe(0);
    writeFileSync(join(dir, 'seeds/raw.csv'), 'day,amount\n2024-01-01,1\n2024-01-02,2\n2024-01-02,5\n');
    expect(cli('seed').code).toBe(0);
    const before = tableRows(dir, 'daily');
    const r = cli('run', '--vars', '{start: "2024-01-02", end: "2024-01-02"}');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('audit accepted_values_daily_n__False__1 failed before publish: 1 failing row');
    expect(r.stdout).toContain('value_field=2, n_records=1');
    expect(tableRows(dir, 'daily')).toEqual(before);
    expect(readFileSync(join(dir, 'target/run/backfilled/models/daily.sql'), 'utf8')).toContain('-- audit accepted_values_daily_n__False__1 (severity error)');
    // Only backfills (and audit: true tests) audit: a full rebuild publishes, and `test` then reports the row.
    expect(cli('run', '--full-refresh').code).toBe(0);
    expect(tableRows(dir, 'daily')).toEqual([{ day: '2024-01-01', amount: 1, n: 1 }, { day: '2024-01-02', amount: 7, n: 2 }]);
    expect(cli('test').stdout).toMatch(/FAIL 1 accepted_values_daily_n__False__1/);
  });
});
