import { describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/api/session.js';
import { renderTest } from '../../../src/data-tests/render-test.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { writeProject } from '../../support/example-project.js';

const PROJECT = `name: shop
data_tests:
  shop:
    +severity: warn
    marts:
      +store_failures: true
`;

const FILES = {
  'project.yml': PROJECT,
  'models/marts/orders.sql': "select * from {{ source('raw', 'orders') }}",
  'models/marts/schema.yml': `version: 2
models:
  - name: orders
    data_tests:
      - positive:
          column_name: amount
          where: "status = '{{ var('status', 'paid') }}'"
    columns:
      - name: id
        data_tests:
          - unique:
              config: {severity: error}
          - not_null:
              enabled: false
`,
  'models/sources.yml': `version: 2
sources:
  - name: raw
    tables:
      - name: orders
        identifier: raw_orders
        data_tests:
          - relationships:
              column_name: id
              to: ref('orders')
              field: id
        columns:
          - name: id
            tests: [unique]
`,
  'tests/generic/positive.sql': '{% test positive(model, column_name) %}select * from {{ model }} where {{ column_name }} <= 0{% endtest %}',
  'tests/no_orders_without_id.sql': "{{ config(severity='warn') }}select * from {{ ref('orders') }} where id is null",
};

describe('capturing data tests', () => {
  const { manifest, graph } = loadSession({ projectDir: writeProject(FILES) });
  const byName = new Map([...manifest.tests.values()].map((t) => [t.name, t]));

  it('builds generic tests from models and sources (table and column level), generic definitions in tests/generic, and singular tests', () => {
    expect([...byName.keys()].sort()).toEqual([
      'no_orders_without_id', 'positive_orders_amount', 'source_relationships_raw_orders_id__id__ref_orders_', 'source_unique_raw_orders_id', 'unique_orders_id',
    ]);
    expect(byName.get('no_orders_without_id')).toMatchObject({ uniqueId: 'test.shop.no_orders_without_id', testType: 'singular', attachedTo: 'model.shop.orders' });
    expect(byName.get('source_relationships_raw_orders_id__id__ref_orders_')!.dependsOn).toEqual(['source.shop.raw.orders', 'model.shop.orders']);
    expect(graph.nodes.get(byName.get('unique_orders_id')!.uniqueId)).toMatchObject({ resourceType: 'test', path: 'models/marts/schema.yml' });
  });

  it('merges the project data_tests tree by folder, then the test config', () => {
    expect(byName.get('unique_orders_id')!.config).toMatchObject({ severity: 'error', store_failures: true });
    expect(byName.get('positive_orders_amount')!.config).toMatchObject({ severity: 'warn', store_failures: true });
    expect(byName.get('source_unique_raw_orders_id')!.config).toEqual({ severity: 'warn' });
    expect(byName.get('no_orders_without_id')!.config).toEqual({ severity: 'warn' });
  });

  it('renders a generic test with where (Jinja rendered) and its rendered arguments', () => {
    expect(renderTest(manifest, byName.get('positive_orders_amount')!)).toBe(`select * from (select * from "main"."orders" where status = 'paid') dbt_subquery where amount <= 0`);
    expect(renderTest(manifest, byName.get('source_relationships_raw_orders_id__id__ref_orders_')!)).toContain('select id as to_field\n    from "main"."orders"');
    expect(renderTest(manifest, byName.get('source_unique_raw_orders_id')!)).toContain('from "main"."raw_orders"');
  });

  it('reports a relationships test to a missing model and both tests and data_tests on one column', () => {
    const bad = (yml: string) => {
      try {
        loadSession({ projectDir: writeProject({ ...FILES, 'models/marts/schema.yml': yml }) });
      } catch (err) {
        return err as ProjectError;
      }
      throw new Error('expected an error');
    };
    expect(bad("models:\n  - name: orders\n    columns:\n      - name: id\n        tests:\n          - relationships: {to: ref('ordrs'), field: id}\n").message)
      .toContain("depends on a node named 'ordrs' which was not found. Did you mean 'orders'?");
    expect(bad('models:\n  - name: orders\n    columns:\n      - name: id\n        tests: [unique]\n        data_tests: [unique]\n').message)
      .toContain("cannot have both 'tests' and 'data_tests' defined");
  });
});
