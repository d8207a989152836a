import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** `ls --output json` prints dbt's keys in dbt's order; --output-keys picks keys (dbt's ListTask.generate_json). */
describe('ls --output json and --output-keys', () => {
  const dir = writeProject({
    'dbt_project.yml': "name: shop\nversion: '1.0'\n",
    'seeds/orders.csv': 'id,amount\n1,10\n',
    'models/sources.yml': 'version: 2\nsources:\n  - name: raw\n    tables:\n      - name: payments\n',
    'models/big_orders.sql': "{{ config(alias='large_orders', tags=['daily']) }}\nselect * from {{ ref('orders') }} where amount > 5\n",
    'models/payments.sql': "select * from {{ source('raw', 'payments') }}\n",
  });
  const ls = (...args: string[]) => {
    const r = runCli(['ls', '--project-dir', dir, ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  };

  it("a model's line: name, resource_type, package_name, original_file_path, unique_id, alias, config, tags, depends_on", () => {
    const [line] = ls('--output', 'json', '--select', 'big_orders');
    expect(Object.keys(line!)).toEqual(['name', 'resource_type', 'package_name', 'original_file_path', 'unique_id', 'alias', 'config', 'tags', 'depends_on']);
    expect(line).toMatchObject({
      name: 'big_orders', resource_type: 'model', package_name: 'shop', original_file_path: 'models/big_orders.sql',
      unique_id: 'model.shop.big_orders', alias: 'large_orders', tags: ['daily'], depends_on: { nodes: ['seed.shop.orders'] },
    });
    // dbt's node config: every key, its default where nothing set it.
    expect(line!.config).toMatchObject({ enabled: true, materialized: 'view', alias: 'large_orders', tags: ['daily'], on_schema_change: 'ignore', 'pre-hook': [], docs: { show: true, node_color: null } });
  });

  it('a source is named by its table and carries its source_name', () => {
    const [line] = ls('--output', 'json', '--resource-type', 'source');
    expect(line).toMatchObject({ name: 'payments', source_name: 'raw', resource_type: 'source', unique_id: 'source.shop.raw.payments', config: { enabled: true, loaded_at_field: null, tags: [] } });
    expect(line).not.toHaveProperty('alias');
  });

  it('--output-keys keeps exactly the keys asked for, given as one quoted list or several values', () => {
    expect(ls('--output', 'json', '--output-keys', 'name resource_type', '--select', 'orders+')).toEqual([
      { name: 'orders', resource_type: 'seed' },
      { name: 'big_orders', resource_type: 'model' },
    ]);
    expect(ls('--output', 'json', '--output-keys', 'unique_id', 'fqn', '--select', 'big_orders')).toEqual([{ unique_id: 'model.shop.big_orders', fqn: ['shop', 'big_orders'] }]);
  });

  it('--output-keys without --output json is a usage error', () => {
    const r = runCli(['ls', '--project-dir', dir, '--output-keys', 'name']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output-keys applies to --output json only');
  });
});
