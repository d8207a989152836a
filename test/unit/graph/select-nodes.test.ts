import { describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src/errors/project-error.js';
import { buildGraph } from '../../../src/graph/build-graph.js';
import { selectNodes, type SelectionOptions } from '../../../src/graph/select-nodes.js';
import { brightcartNodes } from './graph-fixture.js';

const graph = buildGraph(brightcartNodes());

function names(options: SelectionOptions): string[] {
  return [...selectNodes(graph, options)].map((id) => graph.nodes.get(id)!.name).sort();
}
const select = (...values: string[]): string[] => names({ select: values });

function error(options: SelectionOptions): ProjectError {
  try {
    selectNodes(graph, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    return err as ProjectError;
  }
  throw new Error('expected a ProjectError');
}

const REVENUE_UPSTREAM = ['app.payments', 'daily_revenue', 'raw_orders', 'stg_orders', 'stg_payments'];

describe('selectNodes: graph operators', () => {
  it('selects by name', () => {
    expect(select('daily_revenue')).toEqual(['daily_revenue']);
  });
  it('+name: all ancestors', () => {
    expect(select('+daily_revenue')).toEqual(REVENUE_UPSTREAM);
  });
  it('name+: all descendants', () => {
    expect(select('daily_revenue+')).toEqual(['daily_revenue', 'not_null_daily_revenue_day', 'revenue_report']);
  });
  it('N+name: ancestors up to N levels', () => {
    expect(select('1+daily_revenue')).toEqual(['daily_revenue', 'stg_orders', 'stg_payments']);
    expect(select('2+revenue_report')).toEqual(['daily_revenue', 'revenue_report', 'stg_orders', 'stg_payments']);
  });
  it('name+N: descendants up to N levels', () => {
    expect(select('stg_orders+1')).toEqual(['customer_orders', 'daily_revenue', 'stg_orders', 'unique_stg_orders_id']);
  });
  it('+name+: both directions', () => {
    expect(select('+stg_payments+')).toEqual([
      'app.payments',
      'daily_revenue',
      'not_null_daily_revenue_day',
      'revenue_report',
      'stg_payments',
    ]);
  });
  it('@name: the node, its descendants and all their ancestors', () => {
    expect(select('@stg_payments')).toEqual([
      'app.payments',
      'daily_revenue',
      'not_null_daily_revenue_day',
      'raw_orders',
      'revenue_report',
      'stg_orders',
      'stg_payments',
    ]);
  });
});

describe('selectNodes: methods', () => {
  it('tag:, with wildcards and graph operators', () => {
    expect(select('tag:nightly')).toEqual(['customer_orders', 'daily_revenue']);
    expect(select('tag:night*')).toEqual(['customer_orders', 'daily_revenue']);
    expect(select('+tag:finance')).toEqual(REVENUE_UPSTREAM);
  });

  it('path: a directory, a file, a glob', () => {
    const marts = ['customer_orders', 'daily_revenue', 'events_daily', 'not_null_daily_revenue_day'];
    expect(select('path:models/marts')).toEqual(marts);
    expect(select('path:models/marts/')).toEqual(marts);
    expect(select('path:./models/marts')).toEqual(marts);
    expect(select('models/marts')).toEqual(marts);
    expect(select('path:models/marts/daily_revenue.sql')).toEqual(['daily_revenue']);
    expect(select('path:models/*/daily_*.sql')).toEqual(['daily_revenue']);
    expect(select('path:models/staging/sources.yml')).toEqual(['app.events', 'app.payments']);
    expect(select('path:seeds')).toEqual(['raw_customers', 'raw_orders']);
    expect(select('path:models/*')).toHaveLength(12);
  });

  it('path: does not match a partial directory name', () => {
    expect(error({ select: ['path:models/mart'] }).hint).toBe("did you mean 'path:models/marts'?");
  });

  it('file: by file name or stem; inferred from the extension', () => {
    expect(select('file:daily_revenue.sql')).toEqual(['daily_revenue']);
    expect(select('daily_revenue.sql')).toEqual(['daily_revenue']);
    expect(select('file:daily_revenue')).toEqual(['daily_revenue']);
    expect(select('raw_orders.csv')).toEqual(['raw_orders']);
  });

  it('fqn: dotted prefixes, with and without the project, and wildcards', () => {
    const marts = ['customer_orders', 'daily_revenue', 'events_daily', 'not_null_daily_revenue_day'];
    expect(select('brightcart.marts')).toEqual(marts);
    expect(select('fqn:brightcart.marts')).toEqual(marts);
    expect(select('marts')).toEqual(marts);
    expect(select('marts.*')).toEqual(marts);
    expect(select('brightcart.staging.stg_o*')).toEqual(['stg_orders']);
    expect(select('fqn:stg_*')).toEqual(['stg_customers', 'stg_events', 'stg_orders', 'stg_payments']);
    expect(select('fqn:*')).toHaveLength(12); // sources are not selected by fqn
    expect(select('brightcart')).toHaveLength(12);
  });

  it('config.<key>: string compare, list membership, booleans in any case', () => {
    expect(select('config.materialized:incremental')).toEqual(['daily_revenue', 'events_daily']);
    expect(select('config.partition_by:region')).toEqual(['events_daily']);
    expect(select('config.full_refresh:FALSE')).toEqual(['daily_revenue']);
  });

  it('source: by source or source.table', () => {
    expect(select('source:app')).toEqual(['app.events', 'app.payments']);
    expect(select('source:app.events')).toEqual(['app.events']);
    expect(select('source:app.events+')).toEqual(['app.events', 'events_daily', 'stg_events']);
    expect(select('source:brightcart.app.pay*')).toEqual(['app.payments']);
  });

  it('resource_type: and package:', () => {
    expect(select('resource_type:seed')).toEqual(['raw_customers', 'raw_orders']);
    expect(select('resource_type:test')).toEqual(['not_null_daily_revenue_day', 'unique_stg_orders_id']);
    expect(select('package:brightcart')).toHaveLength(14);
  });
});

describe('selectNodes: set operations', () => {
  it('selects everything, sources included, without --select', () => {
    expect(names({})).toHaveLength(14);
    expect(names({ select: [] })).toHaveLength(14);
    expect(names({ select: ['  '] })).toHaveLength(14);
  });

  it('unions space-separated tokens and separate values', () => {
    expect(select('daily_revenue customer_orders', 'events_daily')).toEqual([
      'customer_orders',
      'daily_revenue',
      'events_daily',
    ]);
  });

  it('intersects comma-separated parts', () => {
    expect(select('tag:nightly,config.materialized:incremental')).toEqual(['daily_revenue']);
    expect(select('+daily_revenue,resource_type:seed')).toEqual(['raw_orders']);
    expect(select('tag:nightly,config.materialized:incremental stg_events')).toEqual(['daily_revenue', 'stg_events']);
  });

  it('subtracts excludes afterwards', () => {
    expect(names({ select: ['+daily_revenue'], exclude: ['resource_type:source stg_orders'] })).toEqual([
      'daily_revenue',
      'raw_orders',
      'stg_payments',
    ]);
    expect(names({ exclude: ['path:models'] })).toEqual(['raw_customers', 'raw_orders']);
  });

  it('filters by resource type last', () => {
    expect(names({ select: ['+daily_revenue'], resourceTypes: ['model'] })).toEqual([
      'daily_revenue',
      'stg_orders',
      'stg_payments',
    ]);
    expect(names({ resourceTypes: ['seed', 'source'] })).toEqual([
      'app.events',
      'app.payments',
      'raw_customers',
      'raw_orders',
    ]);
  });

  it('returns the empty set, without throwing, when nothing is left', () => {
    expect(selectNodes(graph, { select: ['daily_revenue'], exclude: ['tag:finance'] }).size).toBe(0);
    expect(selectNodes(graph, { select: ['tag:finance,resource_type:seed'] }).size).toBe(0);
    expect(selectNodes(graph, { select: ['raw_orders'], resourceTypes: ['model'] }).size).toBe(0);
  });
});

describe('selectNodes: errors', () => {
  it('suggests the closest name for a name that matches nothing', () => {
    const err = error({ select: ['daly_revenue'] });
    expect(err.message).toBe("The selection criterion 'daly_revenue' does not match any node.");
    expect(err.hint).toBe("did you mean 'daily_revenue'?");
    expect(err.exitCode).toBe(2);
  });

  it('keeps graph operators in the message and the suggestion', () => {
    const err = error({ select: ['daily_revenue +daly_revenue+'] });
    expect(err.message).toBe("The selection criterion '+daly_revenue+' does not match any node.");
    expect(err.hint).toBe("did you mean '+daily_revenue+'?");
  });

  it('suggests fqn prefixes and sources', () => {
    expect(error({ select: ['brightcart.mrts'] }).hint).toBe("did you mean 'brightcart.marts'?");
    expect(error({ select: ['app.event'] }).hint).toBe("did you mean 'source:app.events'?");
    expect(error({ select: ['zzzzzzzzzz'] }).hint).toBeUndefined();
  });

  it('lists the known tags for a tag that matches nothing', () => {
    const err = error({ select: ['tag:nope'] });
    expect(err.message).toBe("The selection criterion 'tag:nope' does not match any node.");
    expect(err.hint).toBe('known tags: external, finance, nightly');
    expect(error({ select: ['tag:nigthly'] }).hint).toBe("did you mean 'tag:nightly'? known tags: external, finance, nightly");
  });

  it('explains other methods that match nothing', () => {
    expect(error({ select: ['source:ap'] }).hint).toContain('known sources: app.events, app.payments');
    expect(error({ select: ['config.materialized:ephemeral'] }).hint).toContain(
      'known values of config.materialized: incremental, table, view',
    );
    expect(error({ select: ['file:daily_revenu.sql'] }).hint).toBe("did you mean 'file:daily_revenue.sql'?");
  });

  it('checks excludes too, and each part of an intersection', () => {
    expect(error({ exclude: ['tag:nope'] }).message).toContain("'tag:nope'");
    expect(error({ select: ['tag:nightly,daly_revenue'] }).message).toContain("'daly_revenue'");
  });

  it('rejects malformed selectors and unknown methods before matching', () => {
    expect(error({ select: ['daly_revenue a++b'] }).message).toBe("malformed selector 'a++b'");
    expect(error({ select: ['+'] }).message).toBe("malformed selector '+'");
    expect(error({ select: ['tag:'] }).message).toBe("malformed selector 'tag:'");
    expect(error({ select: ['@daily_revenue+'] }).message).toBe("malformed selector '@daily_revenue+'");
    const unknown = error({ select: ['foo:bar'] });
    expect(unknown.message).toBe("unknown selector method 'foo' in 'foo:bar'");
    expect(unknown.hint).toContain('valid methods:');
  });
});
