import { describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject, type Invocation } from '../support/conformance-project.js';
import { forEachEngine } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 13): data tests. Modelled on dbt-tests-adapter
 * basic/test_singular_tests.py (BaseSingularTests) and
 * basic/test_generic_tests.py (BaseGenericTests) and dbt-core's
 * tests/functional/schema_tests/test_schema_v2_tests.py (TestLimitedSchemaTests:
 * warn_if / error_if), with the built-in generic
 * tests' failure counts as dbt's test macros compute them (unique: one row per
 * repeated value; not_null and relationships: one per failing row;
 * accepted_values: one per value not accepted). Each case reads the statuses
 * and failures of target/run_results.json against rows the warehouse holds.
 * The commands a case only needs to succeed (loading seeds, building models
 * the tests read) run in process, through the API the CLI calls; the
 * commands whose exit code, output or run_results.json a case checks spawn
 * the CLI.
 */

/** `seed` or `run` in process, every node succeeding (exit 0): a case's set-up. */
async function done(p: ConformanceProject, command: 'seed' | 'run'): Promise<void> {
  await succeedingRun(p.dir, { command });
}

/** A test's result by the name dbt gives it (unique ids end in a hash, not asserted here). */
function byTestName(inv: Invocation): Record<string, { status: string; failures: number | null }> {
  return Object.fromEntries(inv.results.filter((r) => r.unique_id.startsWith('test.')).map((r) => [r.unique_id.split('.')[2]!, { status: r.status, failures: r.failures }]));
}

forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('singular tests: every row a test returns is a failure (BaseSingularTests)', () => {
    const files = {
      'tests/passing.sql': 'select * from (\n    select 1 as id\n) as my_subquery\nwhere id = 2\n',
      'tests/failing.sql': 'select * from (\n    select 1 as id\n) as my_subquery\nwhere id = 1\n',
    };

    it('test: two results, passing passes with 0 failures, failing fails with 1, exit 1', () => {
      const p = onEngine(files, 'singular_tests');
      const test = p.dbt(['test']);
      expect(test.code, test.stdout + test.stderr).toBe(1);
      expect(test.statuses).toEqual({ 'test.singular_tests.passing': 'pass', 'test.singular_tests.failing': 'fail' });
      expect(byTestName(test)).toEqual({ passing: { status: 'pass', failures: 0 }, failing: { status: 'fail', failures: 1 } });
    });

    it('the failures count is the number of rows the query returns, read from a seed', async () => {
      const p = onEngine({
        'seeds/people.csv': 'id,age\n1,30\n2,-4\n3,-1\n4,51\n',
        'tests/no_negative_ages.sql': "select * from {{ ref('people') }} where age < 0\n",
      }, 'singular_tests');
      await done(p, 'seed');
      const test = p.dbt(['test']);
      expect(test.code).toBe(1);
      const negative = p.rows('people').filter((r) => Number(r.age) < 0).length;
      expect(byTestName(test)).toEqual({ no_negative_ages: { status: 'fail', failures: negative } });
      p.exec('update people set age = -age where age < 0');
      const again = p.dbt(['test']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(byTestName(again)).toEqual({ no_negative_ages: { status: 'pass', failures: 0 } });
    });

    it('severity warn: the failing test warns (status warn, its failures counted) and the command exits 0', () => {
      const p = onEngine({ 'tests/failing.sql': "{{ config(severity='warn') }}\nselect 1 as id union all select 2\n" }, 'singular_tests');
      const test = p.dbt(['test']);
      expect(test.code, test.stdout + test.stderr).toBe(0);
      expect(byTestName(test)).toEqual({ failing: { status: 'warn', failures: 2 } });
    });
  });

  // dbt's fixture (basic/files.py seeds_base_csv), first rows: facts.
  const BASE_CSV = 'id,name,some_date\n1,Easton,1981-05-20T06:46:51\n2,Lillian,1978-09-03T18:10:33\n3,Jeremiah,1982-03-11T03:59:51\n4,Nolan,1976-05-06T20:21:35\n5,Hannah,1982-06-23T05:41:26\n';
  const notNullOn = (key: 'models' | 'seeds', name: string, testsKey: 'data_tests' | 'tests' = 'data_tests') =>
    `version: 2\n${key}:\n  - name: ${name}\n    columns:\n     - name: id\n       ${testsKey}:\n         - not_null\n`;

  describe('generic tests on a seed, a view and a table (BaseGenericTests)', () => {
    const files = {
      'seeds/base.csv': BASE_CSV,
      // The seed's properties live next to it, in the seed path, under seeds:.
      'seeds/schema.yml': notNullOn('seeds', 'base'),
      'models/view_model.sql': "{{ config(materialized='view') }}\nselect * from {{ ref('base') }}\n",
      'models/table_model.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('base') }}\n",
      'models/schema_view.yml': notNullOn('models', 'view_model'),
      // The older key, still read by dbt.
      'models/schema_table.yml': notNullOn('models', 'table_model', 'tests'),
    };

    it('seed, test -m base (1 result), run (2), test (3): every test passes', async () => {
      const p = onEngine(files, 'generic_tests');
      await done(p, 'seed');
      const onSeed = p.dbt(['test', '-m', 'base']);
      expect(onSeed.code, onSeed.stdout + onSeed.stderr).toBe(0);
      expect(byTestName(onSeed)).toEqual({ not_null_base_id: { status: 'pass', failures: 0 } });
      const run = p.dbt(['run']);
      expect(run.statuses).toEqual({ 'model.generic_tests.view_model': 'success', 'model.generic_tests.table_model': 'success' });
      const all = p.dbt(['test']);
      expect(all.code, all.stdout + all.stderr).toBe(0);
      expect(byTestName(all)).toEqual({
        not_null_base_id: { status: 'pass', failures: 0 },
        not_null_view_model_id: { status: 'pass', failures: 0 },
        not_null_table_model_id: { status: 'pass', failures: 0 },
      });
    });

    it('a NULL id loaded into the seed fails the seed test and the view test; the table keeps its earlier rows until rebuilt', async () => {
      const p = onEngine(files, 'generic_tests');
      await done(p, 'seed');
      await done(p, 'run');
      p.write('seeds/base.csv', `${BASE_CSV},Nameless,2000-01-01T00:00:00\n`);
      await done(p, 'seed');
      const nulls = p.rows('base').filter((r) => r.id === null).length;
      expect(nulls).toBe(1);
      const test = p.dbt(['test']);
      expect(test.code).toBe(1);
      expect(byTestName(test)).toEqual({
        not_null_base_id: { status: 'fail', failures: nulls },
        not_null_view_model_id: { status: 'fail', failures: nulls },
        not_null_table_model_id: { status: 'pass', failures: 0 },
      });
    });

    // dbt's own fixture declares the seed's test under `models:` in seeds/schema.yml: dbt warns that 'base' is a seed
    // specified in the models section and still creates not_null_base_id, so `test -m base` has 1 result.
    it('a seed described under models: in a yml file: a warning, and its tests still run on the seed', () => {
      const p = onEngine({
        'seeds/base.csv': 'id,name\n1,a\n2,b\n',
        'seeds/schema.yml': 'version: 2\nmodels:\n  - name: base\n    columns:\n      - name: id\n        data_tests: [not_null]\n',
      }, 'generic_tests');
      const seed = p.dbt(['seed']);
      expect(seed.code, seed.stdout + seed.stderr).toBe(0);
      expect(seed.stderr).toContain("'base' is a seed, described under models:");
      const test = p.dbt(['test', '-m', 'base']);
      expect(test.code).toBe(0);
      expect(test.results.map((r) => [r.unique_id.replace(/\.[0-9a-f]{10}$/, ''), r.status])).toEqual([['test.generic_tests.not_null_base_id', 'pass']]);
      p.exec("insert into base values (null, 'c')");
      expect(p.dbt(['test', '-m', 'base']).results.map((r) => [r.status, r.failures])).toEqual([['fail', 1]]);
    });
  });

  describe('the built-in generic tests count failures as dbt does', () => {
    const files = {
      'seeds/customers.csv': 'id,status\n1,active\n2,churned\n3,active\n',
      'seeds/orders.csv': 'order_id,customer_id,status\n10,1,placed\n11,1,shipped\n11,2,placed\n12,,lost\n13,9,placed\n14,8,stolen\n',
      'seeds/properties.yml': `version: 2
seeds:
  - name: orders
    columns:
      - name: order_id
        data_tests:
          - unique
          - not_null
      - name: customer_id
        data_tests:
          - not_null
          - relationships:
              to: ref('customers')
              field: id
      - name: status
        data_tests:
          - accepted_values:
              values: ['placed', 'shipped']
  - name: customers
    columns:
      - name: id
        tests:
          - unique
          - not_null
      - name: status
        tests:
          - accepted_values:
              values: ['active', 'churned']
`,
    };

    it('unique: one failure per repeated value; not_null and relationships: one per row; accepted_values: one per bad value', async () => {
      const p = onEngine(files, 'generic');
      await done(p, 'seed');
      const test = p.dbt(['test']);
      expect(test.code, test.stdout + test.stderr).toBe(1);
      const orders = p.rows('orders');
      const customerIds = new Set(p.rows('customers').map((r) => r.id));
      const repeated = new Set(orders.map((r) => r.order_id).filter((id, i, all) => all.indexOf(id) !== i)).size;
      const orphans = orders.filter((r) => r.customer_id !== null && !customerIds.has(r.customer_id)).length;
      const badStatuses = new Set(orders.map((r) => r.status).filter((s) => s !== 'placed' && s !== 'shipped')).size;
      expect([repeated, orphans, badStatuses]).toEqual([1, 2, 2]); // the fixture is what the case says it is
      expect(byTestName(test)).toEqual({
        unique_orders_order_id: { status: 'fail', failures: repeated },
        not_null_orders_order_id: { status: 'pass', failures: 0 },
        not_null_orders_customer_id: { status: 'fail', failures: orders.filter((r) => r.customer_id === null).length },
        relationships_orders_customer_id__id__ref_customers_: { status: 'fail', failures: orphans },
        accepted_values_orders_status__placed__shipped: { status: 'fail', failures: badStatuses },
        unique_customers_id: { status: 'pass', failures: 0 },
        not_null_customers_id: { status: 'pass', failures: 0 },
        accepted_values_customers_status__active__churned: { status: 'pass', failures: 0 },
      });
    });

    it('test -s orders runs only the tests on orders, the relationships test included; fixing the rows makes them pass', async () => {
      const p = onEngine(files, 'generic');
      await done(p, 'seed');
      const selected = p.dbt(['test', '-s', 'orders']);
      expect(Object.keys(byTestName(selected)).sort()).toEqual([
        'accepted_values_orders_status__placed__shipped', 'not_null_orders_customer_id', 'not_null_orders_order_id',
        'relationships_orders_customer_id__id__ref_customers_', 'unique_orders_order_id',
      ]);
      p.write('seeds/orders.csv', 'order_id,customer_id,status\n10,1,placed\n11,1,shipped\n12,2,placed\n13,3,placed\n');
      await done(p, 'seed');
      const fixed = p.dbt(['test', '-s', 'orders']);
      expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
      expect(Object.values(byTestName(fixed)).every((r) => r.status === 'pass' && r.failures === 0)).toBe(true);
    });

    it('build: a failing test on a seed skips the model built from it; a passing one lets its model build', () => {
      const p = onEngine({
        ...files,
        'models/order_summary.sql': "{{ config(materialized='table') }}\nselect status, count(*) as n from {{ ref('orders') }} group by status\n",
        'models/customer_summary.sql': "{{ config(materialized='table') }}\nselect status, count(*) as n from {{ ref('customers') }} group by status\n",
      }, 'generic');
      const build = p.dbt(['build']);
      expect(build.code).toBe(1);
      expect(build.statuses['model.generic.order_summary']).toBe('skipped');
      expect(build.statuses['model.generic.customer_summary']).toBe('success');
      expect(p.relationType('order_summary')).toBeUndefined();
      expect(p.rows('customer_summary', 'status')).toEqual([{ status: 'active', n: 2 }, { status: 'churned', n: 1 }]);
    });
  });

  describe('warn_if and error_if thresholds decide the status; a passing test reports 0 failures (TestLimitedSchemaTests)', () => {
    // One colour has a NULL count in table_limit_null, two in table_failure_limit_null.
    const files = {
      'seeds/seed.csv': 'id,favorite_color\n1,blue\n2,blue\n3,green\n',
      'models/table_limit_null.sql': "{{ config(materialized='table') }}\nselect favorite_color as favorite_color_full_list, count(*) as count\nfrom {{ this.schema }}.seed\ngroup by 1\nunion all\nselect 'purple' as favorite_color_full_list, null as count\n",
      'models/table_warning_limit_null.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('table_limit_null') }}\n",
      'models/table_failure_limit_null.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('table_limit_null') }}\nunion all\nselect 'magenta' as favorite_color_full_list, null as count\n",
      'models/schema.yml': `version: 2
models:
  - name: table_limit_null
    columns:
      - name: count
        data_tests:
          - not_null:
              error_if: '>1'
              warn_if: '>1'
  - name: table_warning_limit_null
    columns:
      - name: count
        data_tests:
          - not_null:
              error_if: '>1'
  - name: table_failure_limit_null
    columns:
      - name: count
        data_tests:
          - not_null:
              error_if: '>1'
`,
    };

    it('1 NULL under both thresholds passes (0 failures), 1 NULL over warn_if warns (1), 2 NULLs over error_if fail (2), exit 1', async () => {
      const p = onEngine(files, 'limited');
      await done(p, 'seed');
      await done(p, 'run');
      const nulls = (t: string) => p.rows(t).filter((r) => r.count === null).length;
      expect([nulls('table_limit_null'), nulls('table_warning_limit_null'), nulls('table_failure_limit_null')]).toEqual([1, 1, 2]);
      const test = p.dbt(['test']);
      expect(test.code, test.stdout + test.stderr).toBe(1);
      expect(byTestName(test)).toEqual({
        not_null_table_limit_null_count: { status: 'pass', failures: 0 },
        not_null_table_warning_limit_null_count: { status: 'warn', failures: nulls('table_warning_limit_null') },
        not_null_table_failure_limit_null_count: { status: 'fail', failures: nulls('table_failure_limit_null') },
      });
      expect(test.results.reduce((sum, r) => sum + (r.failures ?? 0), 0)).toBe(3);
    });
  });

  describe('test configs: limit, where, a custom name, severity from the project file, a generic test of the project', () => {
    it('failures count the rows the configured query returns; data_tests: +severity in dbt_project.yml makes a test warn', async () => {
      const p = onEngine({
        'dbt_project.yml': "name: cfg\nversion: '1.0'\nprofile: default\ndata_tests:\n  cfg:\n    +severity: warn\n",
        'seeds/colors.csv': 'id,color\n1,blue\n2,\n3,\n4,red\n5,\n6,green\n',
        'seeds/colors.yml': `version: 2
seeds:
  - name: colors
    columns:
      - name: color
        data_tests:
          - not_null:
              name: color_not_null_limited
              config:
                limit: 2
                severity: error
          - not_null:
              name: color_not_null_where
              config:
                where: "id > 2"
                severity: error
          - not_null:
              name: color_not_null_project_severity
          - is_primary:
              config:
                severity: error
`,
        'tests/generic/is_primary.sql': "{% test is_primary(model, column_name) %}\nselect * from {{ model }} where {{ column_name }} not in ('red', 'blue', 'yellow')\n{% endtest %}\n",
      }, 'cfg');
      await done(p, 'seed');
      const rows = p.rows('colors');
      const nulls = rows.filter((r) => r.color === null);
      expect(nulls.length).toBe(3);
      const test = p.dbt(['test']);
      expect(test.code).toBe(1);
      expect(byTestName(test)).toEqual({
        color_not_null_limited: { status: 'fail', failures: Math.min(2, nulls.length) },
        color_not_null_where: { status: 'fail', failures: nulls.filter((r) => Number(r.id) > 2).length },
        color_not_null_project_severity: { status: 'warn', failures: nulls.length },
        is_primary_colors_color: { status: 'fail', failures: rows.filter((r) => r.color !== null && !['red', 'blue', 'yellow'].includes(String(r.color))).length },
      });
    });
  });

  describe('tests on sources, and the tests / data_tests keys', () => {
    it("tests on a source's columns are named source_<test>_<source>_<table>_<column> and select with source:", async () => {
      const p = onEngine({
        'seeds/raw_ids.csv': 'id\n1\n2\n',
        'models/sources.yml': `version: 2
sources:
  - name: raw
    schema: "{{ target.schema }}"
    tables:
      - name: raw_ids
        columns:
          - name: id
            data_tests:
              - not_null
              - accepted_values:
                  values: [1]
                  quote: false
`,
      }, 'src');
      await done(p, 'seed');
      const test = p.dbt(['test', '-s', 'source:raw.raw_ids']);
      expect(test.code).toBe(1);
      const notAccepted = new Set(p.rows('raw_ids').map((r) => r.id).filter((id) => id !== 1)).size;
      expect(byTestName(test)).toEqual({
        source_not_null_raw_raw_ids_id: { status: 'pass', failures: 0 },
        source_accepted_values_raw_raw_ids_id__False__1: { status: 'fail', failures: notAccepted },
      });
    });

    it("one column with both tests: and data_tests: is refused at load, as dbt refuses it (exit 2, nothing runs)", () => {
      const p = onEngine({
        'seeds/s.csv': 'id\n1\n2\n',
        'seeds/s.yml': 'version: 2\nseeds:\n  - name: s\n    columns:\n      - name: id\n        tests:\n          - unique\n        data_tests:\n          - not_null\n',
      }, 'both');
      const seed = p.dbt(['seed']);
      expect(seed.code).toBe(2);
      expect(seed.stderr).toContain("Invalid test config: cannot have both 'tests' and 'data_tests' defined");
      expect(p.relationType('s')).toBeUndefined();
    });
  });
});
