import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * The project file's config tree reaches a node by its whole fqn, as dbt's
 * does: folders, then the node's own name (`models: {p: {marts: {orders:
 * {+materialized: table}}}}`), for models and seeds (dbt-core tests of
 * project configs, and the seeds tests that disable one seed by name).
 */
describeEachEngine('configs for one node by name in the project file', (engine) => {
  it('a model under its folder and a root model are configured by name; a seed disabled by name is not loaded', () => {
    const p = conformanceProject({
      'dbt_project.yml': `name: paths
version: '1.0'
profile: default
models:
  paths:
    +materialized: view
    root_model:
      +materialized: table
    marts:
      orders:
        +materialized: table
        +alias: orders_table
seeds:
  paths:
    skipped:
      +enabled: false
`,
      'models/root_model.sql': 'select 1 as id\n',
      'models/other.sql': 'select 2 as id\n',
      'models/marts/orders.sql': "select * from {{ ref('root_model') }}\n",
      'seeds/skipped.csv': 'id\n1\n',
      'seeds/kept.csv': 'id\n2\n',
    }, 'paths', { engine });
    const build = p.dbt(['build']);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(p.relationType('root_model')).toBe('table');
    expect(p.relationType('other')).toBe('view');
    expect(p.relationType('orders_table')).toBe('table');
    expect(p.relationType('orders')).toBeUndefined();
    expect(p.relationType('kept')).toBe('table');
    expect(p.relationType('skipped')).toBeUndefined();
  });
});
