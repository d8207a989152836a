import type { GraphNode, ResourceType } from '../../../src/graph/graph-node.js';

interface NodeSpec {
  readonly dependsOn?: readonly string[];
  readonly tags?: readonly string[];
  readonly config?: Record<string, unknown>;
  readonly path?: string;
  readonly fqn?: readonly string[];
}

/** A node of project 'p' for ordering and cycle tests: id `<type>.p.<name>`. */
export function node(name: string, resourceType: ResourceType = 'model', spec: NodeSpec = {}): GraphNode {
  return {
    uniqueId: `${resourceType}.p.${name}`,
    name,
    resourceType,
    path: spec.path ?? `models/${name}.sql`,
    fqn: spec.fqn ?? ['p', name],
    tags: spec.tags ?? [],
    dependsOn: spec.dependsOn ?? [],
    config: spec.config,
    packageName: 'p',
  };
}

function model(dir: string, name: string, dependsOn: string[], extra: Partial<GraphNode> = {}): GraphNode {
  return {
    uniqueId: `model.brightcart.${name}`,
    name,
    resourceType: 'model',
    path: `models/${dir}/${name}.sql`,
    fqn: ['brightcart', dir, name],
    tags: [],
    dependsOn,
    config: { materialized: 'view' },
    packageName: 'brightcart',
    ...extra,
  };
}

function seed(name: string): GraphNode {
  return {
    uniqueId: `seed.brightcart.${name}`,
    name,
    resourceType: 'seed',
    path: `seeds/${name}.csv`,
    fqn: ['brightcart', name],
    tags: [],
    dependsOn: [],
    packageName: 'brightcart',
  };
}

function source(sourceName: string, table: string): GraphNode {
  return {
    uniqueId: `source.brightcart.${sourceName}.${table}`,
    name: `${sourceName}.${table}`,
    resourceType: 'source',
    path: 'models/staging/sources.yml',
    fqn: ['brightcart', 'staging', sourceName, table],
    tags: ['external'],
    dependsOn: [],
    packageName: 'brightcart',
  };
}

function test(name: string, parent: string, path: string): GraphNode {
  return {
    uniqueId: `test.brightcart.${name}`,
    name,
    resourceType: 'test',
    path,
    fqn: ['brightcart', ...path.split('/').slice(1, -1), name],
    tags: [],
    dependsOn: [parent],
    packageName: 'brightcart',
  };
}

/**
 * seeds raw_orders, raw_customers; sources app.events, app.payments
 *   stg_orders <- raw_orders        stg_customers <- raw_customers
 *   stg_events <- app.events        stg_payments  <- app.payments
 *   daily_revenue   <- stg_orders, stg_payments   (incremental; nightly, finance)
 *   customer_orders <- stg_orders, stg_customers  (table; nightly)
 *   events_daily    <- stg_events                 (incremental, partition_by [day, region])
 *   revenue_report  <- daily_revenue              (table)
 * tests: not_null_daily_revenue_day <- daily_revenue, unique_stg_orders_id <- stg_orders
 */
export function brightcartNodes(): GraphNode[] {
  return [
    seed('raw_orders'),
    seed('raw_customers'),
    source('app', 'events'),
    source('app', 'payments'),
    model('staging', 'stg_orders', ['seed.brightcart.raw_orders']),
    model('staging', 'stg_customers', ['seed.brightcart.raw_customers']),
    model('staging', 'stg_events', ['source.brightcart.app.events']),
    model('staging', 'stg_payments', ['source.brightcart.app.payments']),
    model('marts', 'daily_revenue', ['model.brightcart.stg_orders', 'model.brightcart.stg_payments'], {
      tags: ['nightly', 'finance'],
      config: { materialized: 'incremental', full_refresh: false },
    }),
    model('marts', 'customer_orders', ['model.brightcart.stg_orders', 'model.brightcart.stg_customers'], {
      tags: ['nightly'],
      config: { materialized: 'table' },
    }),
    model('marts', 'events_daily', ['model.brightcart.stg_events'], {
      config: { materialized: 'incremental', partition_by: ['day', 'region'] },
    }),
    model('reports', 'revenue_report', ['model.brightcart.daily_revenue'], { config: { materialized: 'table' } }),
    test('not_null_daily_revenue_day', 'model.brightcart.daily_revenue', 'models/marts/schema.yml'),
    test('unique_stg_orders_id', 'model.brightcart.stg_orders', 'models/staging/schema.yml'),
  ];
}
