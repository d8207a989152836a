import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A node's `config` as dbt's manifest and `graph` variable have it: every key of its resource type's
 * config class, dbt's default where nothing set it (dbt_project_evaluator's stg_nodes renders
 * `cast({{ node.config.enabled }} as boolean)` for every node); and a data test's yml config rendered
 * at parse (`enabled: "{{ not var('deactivate_for_fusion', false) }}"` is a boolean, not that text).
 */
const FILES = {
  'seeds/codes.csv': 'code\na\nb\n',
  'models/plain.sql': "{{ config(post_hook='select 1') }}\nselect 1 as id\n",
  'models/schema.yml': `version: 2
sources:
  - name: raw
    schema: "{{ target.schema }}"
    tables:
      - name: codes
models:
  - name: plain
    columns:
      - name: id
        data_tests:
          - unique:
              config:
                enabled: "{{ not var('skip_checks', false) }}"
                severity: "{{ 'warn' if var('soft', false) else 'error' }}"
`,
  // One row per node the graph has: what a package walking graph.nodes reads of its config.
  'models/node_configs.sql': `{{ config(materialized='table') }}
{% set rows = [] %}
{% if execute %}
{% for node in graph.nodes.values() | sort(attribute='unique_id') if node.resource_type in ['model', 'seed', 'test'] %}
{% do rows.append("select '" ~ node.unique_id ~ "' as unique_id, '" ~ node.config.enabled ~ "' as enabled, '" ~ node.config.materialized ~ "' as materialized, '"
  ~ node.config.on_schema_change ~ "' as on_schema_change, " ~ (node.config.tags | length) ~ " as tags, '" ~ node.config.docs.show ~ "' as docs_show, '"
  ~ node.config.contract.enforced ~ "' as contract_enforced, '" ~ node.config.severity ~ "' as severity, " ~ (node.config['post-hook'] | length) ~ " as post_hooks") %}
{% endfor %}
{% for node in graph.sources.values() %}
{% do rows.append("select '" ~ node.unique_id ~ "', '" ~ node.config.enabled ~ "', '" ~ node.config.materialized ~ "', '" ~ node.config.on_schema_change ~ "', "
  ~ (node.config.tags | length) ~ ", '" ~ (node.config.freshness.warn_after.count is none) ~ "', 'n/a', 'n/a', 0") %}
{% endfor %}
{% endif %}
{{ rows | join('\\nunion all\\n') if rows else "select 'none' as unique_id" }}
`,
};

type Manifest = { nodes: Record<string, { config: Record<string, unknown> }>; sources: Record<string, { config: Record<string, unknown> }> };

describeEachEngine("nodes' config defaults in the graph variable and manifest.json", (engine) => {
  it("gives every node dbt's config keys with their defaults, and renders a data test's yml config at parse", () => {
    const p = conformanceProject(FILES, 'cfg', { engine });
    const build = p.dbt(['build']);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(p.rows('node_configs', 'unique_id')).toEqual([
      { unique_id: 'model.cfg.node_configs', enabled: 'True', materialized: 'table', on_schema_change: 'ignore', tags: 0, docs_show: 'True', contract_enforced: 'False', severity: '', post_hooks: 0 },
      { unique_id: 'model.cfg.plain', enabled: 'True', materialized: 'view', on_schema_change: 'ignore', tags: 0, docs_show: 'True', contract_enforced: 'False', severity: '', post_hooks: 1 },
      { unique_id: 'seed.cfg.codes', enabled: 'True', materialized: 'seed', on_schema_change: 'ignore', tags: 0, docs_show: 'True', contract_enforced: 'False', severity: '', post_hooks: 0 },
      // A source's config has no materialization; its freshness is dbt's empty threshold (count none).
      { unique_id: 'source.cfg.raw.codes', enabled: 'True', materialized: '', on_schema_change: '', tags: 0, docs_show: 'True', contract_enforced: 'n/a', severity: 'n/a', post_hooks: 0 },
      // The test's `enabled: "{{ not var(...) }}"` rendered to true, its severity to 'error'.
      { unique_id: 'test.cfg.unique_plain_id.e1dab8ea08', enabled: 'True', materialized: 'test', on_schema_change: '', tags: 0, docs_show: '', contract_enforced: '', severity: 'error', post_hooks: 0 },
    ].map((r) => (r.unique_id.startsWith('test.') ? { ...r, unique_id: expect.stringMatching(/^test\.cfg\.unique_plain_id/) } : r)));

    const manifest = JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as Manifest;
    expect(manifest.nodes['model.cfg.plain']!.config).toMatchObject({
      enabled: true, materialized: 'view', alias: null, schema: null, database: null, tags: [], meta: {}, group: null, persist_docs: {}, quoting: {}, column_types: {},
      full_refresh: null, unique_key: null, incremental_strategy: null, on_schema_change: 'ignore', on_configuration_change: 'apply', grants: {}, packages: [],
      docs: { show: true, node_color: null }, contract: { enforced: false, alias_types: true }, access: 'protected', event_time: null, lookback: 1,
      'pre-hook': [], 'post-hook': [{ sql: 'select 1', transaction: true, index: 0 }],
    });
    expect(manifest.nodes['model.cfg.plain']!.config).not.toHaveProperty('post_hook');
    expect(manifest.nodes['seed.cfg.codes']!.config).toMatchObject({ enabled: true, materialized: 'seed', delimiter: ',', quote_columns: null, 'pre-hook': [] });
    const test = Object.entries(manifest.nodes).find(([id]) => id.startsWith('test.'))![1];
    expect(test.config).toMatchObject({ enabled: true, materialized: 'test', severity: 'error', schema: 'dbt_test__audit', warn_if: '!= 0', error_if: '!= 0', fail_calc: 'count(*)', where: null, limit: null, store_failures: null });
    expect(manifest.sources['source.cfg.raw.codes']!.config).toEqual({
      enabled: true, event_time: null, loaded_at_field: null, loaded_at_query: null, meta: {}, tags: [],
      freshness: { warn_after: { count: null, period: null }, error_after: { count: null, period: null }, filter: null },
    });
  });

  it("disables a data test whose yml `enabled:` renders false, and fails it as a warning when its severity renders 'warn'", () => {
    const p = conformanceProject({ ...FILES, 'models/plain.sql': 'select 1 as id union all select 1\n' }, 'cfg', { engine });
    const skipped = p.dbt(['build', '--vars', '{skip_checks: true}']);
    expect(skipped.code, skipped.stdout + skipped.stderr).toBe(0);
    expect(Object.keys(skipped.statuses).filter((id) => id.startsWith('test.'))).toEqual([]);
    expect(p.query("select unique_id from node_configs where unique_id like 'test.%'")).toEqual([]);
    const soft = p.dbt(['build', '--vars', '{soft: true}']);
    expect(soft.code, soft.stdout + soft.stderr).toBe(0);
    expect(Object.entries(soft.statuses).filter(([id]) => id.startsWith('test.')).map(([, s]) => s)).toEqual(['warn']);
    expect(p.query("select severity from node_configs where unique_id like 'test.%'")).toEqual([{ severity: 'warn' }]);
  });
});
