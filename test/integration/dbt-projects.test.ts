import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureProject } from '../support/fixture-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';

describe('jaffle-shop: a dbt project (dbt_project.yml, no profiles.yml) runs unchanged', () => {
  const dir = fixtureProject('jaffle-shop');
  const build = runCli(['build', '--project-dir', dir]);

  it('build passes: seeds, staging views, marts, and every test right after its model', () => {
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
    expect(build.stdout).toContain('Using dbt_project.yml (no project.yml found)');
    expect(build.stdout).toMatch(/Found 5 models, 19 data tests, 3 seeds, 2 macros/);
    expect(build.stdout).toMatch(/Done\. PASS=27 WARN=0 ERROR=0 SKIP=0 TOTAL=27/);
    const lines = build.stdout.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(at('OK created sql view model main.stg_orders')).toBeLessThan(at('PASS unique_stg_orders_order_id'));
    expect(at('PASS unique_stg_orders_order_id')).toBeLessThan(at('START sql view model main.stg_payments'));
    // The relationships test waits for both of its models.
    expect(at('OK created sql table model main.customers')).toBeLessThan(at('PASS relationships_orders_customer_id__customer_id__ref_customers_'));
    // dbt's names: a long accepted_values name is hashed exactly as dbt does.
    expect(build.stdout).toContain('PASS accepted_values_stg_orders_4f514bf94b77b7ea437830eec4421c58');
    expect(existsSync(join(dir, 'target/compiled/jaffle_shop/models/marts/schema.yml/unique_orders_order_id.sql'))).toBe(true);
  });

  it('orders pivots payments by method (a Jinja loop over a project-scoped var), computed by hand', () => {
    expect(tableRows(dir, 'orders')).toEqual([
      { order_id: 1, customer_id: 1, order_date: '2018-01-01', status: 'returned', credit_card_amount: 10, coupon_amount: 0, bank_transfer_amount: 0, gift_card_amount: 0, amount: 10 },
      { order_id: 2, customer_id: 3, order_date: '2018-01-02', status: 'completed', credit_card_amount: 20, coupon_amount: 2, bank_transfer_amount: 0, gift_card_amount: 0, amount: 22 },
      { order_id: 3, customer_id: 1, order_date: '2018-01-04', status: 'completed', credit_card_amount: 5, coupon_amount: 1, bank_transfer_amount: 0, gift_card_amount: 0, amount: 6 },
      { order_id: 4, customer_id: 2, order_date: '2018-01-05', status: 'completed', credit_card_amount: 0, coupon_amount: 0, bank_transfer_amount: 25, gift_card_amount: 0, amount: 25 },
      { order_id: 5, customer_id: 3, order_date: '2018-01-05', status: 'shipped', credit_card_amount: 0, coupon_amount: 0, bank_transfer_amount: 0, gift_card_amount: 17, amount: 17 },
      { order_id: 6, customer_id: 1, order_date: '2018-01-07', status: 'placed', credit_card_amount: 30, coupon_amount: 0, bank_transfer_amount: 0, gift_card_amount: 0, amount: 30 },
    ]);
  });

  it('customers joins orders and payments, computed by hand', () => {
    expect(tableRows(dir, 'customers')).toEqual([
      { customer_id: 1, first_name: 'Michael', last_name: 'P.', first_order: '2018-01-01', most_recent_order: '2018-01-07', number_of_orders: 3, customer_lifetime_value: 46 },
      { customer_id: 2, first_name: 'Shawn', last_name: 'M.', first_order: '2018-01-05', most_recent_order: '2018-01-05', number_of_orders: 1, customer_lifetime_value: 25 },
      { customer_id: 3, first_name: 'Kathleen', last_name: 'P.', first_order: '2018-01-02', most_recent_order: '2018-01-05', number_of_orders: 2, customer_lifetime_value: 39 },
      { customer_id: 4, first_name: 'Jimmy', last_name: 'C.', first_order: null, most_recent_order: null, number_of_orders: 0, customer_lifetime_value: 0 },
    ]);
    // staging stays views (the + folder config), marts are tables
    expect(tableRows(dir, 'stg_payments')).toHaveLength(8);
  });

  it('test --indirect-selection: eager brings the relationship test along with orders, cautious and buildable do not (customers is not upstream of orders)', () => {
    const run = (...mode: string[]) => runCli(['test', '--select', 'orders', ...mode, '--project-dir', dir]);
    const names = (stdout: string) => [...stdout.matchAll(/\d+ of \d+ (?:PASS|WARN \d+|FAIL \d+) (\w+)/g)].map((m) => m[1]).sort();
    const eager = names(run().stdout);
    expect(eager).toContain('relationships_orders_customer_id__customer_id__ref_customers_');
    expect(eager).toContain('assert_order_amounts_match_payments');
    const buildable = names(run('--indirect-selection', 'buildable').stdout);
    expect(buildable).toEqual(eager.filter((t) => !t.startsWith('relationships_')));
    const cautious = names(run('--indirect-selection', 'cautious').stdout);
    expect(cautious).toEqual(buildable.filter((t) => t !== 'assert_order_amounts_match_payments'));
    // Nothing left to test is dbt's NothingToDo: a warning, exit 0 (an error only under --warn-error).
    const empty = runCli(['test', '--select', 'orders', '--indirect-selection', 'empty', '--project-dir', dir]);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('Nothing to do: --select orders leaves no unit test or data test to test');
    expect(runCli(['--warn-error', 'test', '--select', 'orders', '--indirect-selection', 'empty', '--project-dir', dir]).code).toBe(2);
  });

  it('manifest.json lists the tests with their parents', () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8'));
    const rel = Object.values(manifest.nodes as Record<string, { name: string; depends_on: { nodes: string[] } }>).find((n) => n.name.startsWith('relationships_orders'));
    expect(rel?.depends_on.nodes.sort()).toEqual(['model.jaffle_shop.customers', 'model.jaffle_shop.orders']);
  });
});

describe('jinja-shop: the Jinja dbt projects rely on', () => {
  const dir = fixtureProject('jinja-shop');
  const build = runCli(['build', '--project-dir', dir]);

  it('build passes, with one WARN that does not fail it', () => {
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
    expect(build.stdout).toMatch(/WARN 3 accepted_values_daily_amounts_amount__10__15__100 \.+ \[WARN 3 in/);
    expect(build.stdout).toContain('Completed with 1 warning:');
    expect(build.stdout).toMatch(/Done\. PASS=10 WARN=1 ERROR=0 SKIP=0 TOTAL=11/);
  });

  it('run_query + return(), namespace(), break/continue, format and %, selectattr, statement, adapter, modules.datetime, tojson', () => {
    expect(tableRows(dir, 'kind_totals')).toEqual([{
      card_total: 17, cash_total: 5, gift_total: 3, n_kinds: 3, active_channels: 'web,store', event_columns: 4, max_amount: 100,
      next_day: '2024-02-01', kinds_json: '["card", "cash", "gift"]', // Jinja's tojson: json.dumps with its default separators
    }]);
    expect(tableRows(dir, 'daily_amounts')).toEqual([
      { day: '2024-01-01', amount: 15, events: 2 },
      { day: '2024-01-02', amount: 10, events: 2 },
      { day: '2024-01-03', amount: 100, events: 1 },
    ]);
  });
});
