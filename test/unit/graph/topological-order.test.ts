import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../src/graph/build-graph.js';
import type { GraphNode } from '../../../src/graph/graph-node.js';
import { topologicalOrder } from '../../../src/graph/topological-order.js';
import { brightcartNodes, node } from './graph-fixture.js';

function orderOf(nodes: GraphNode[], ids?: string[]): string[] {
  return topologicalOrder(buildGraph(nodes), ids).map((id) => id.replace(/^\w+\.p\./, ''));
}

describe('topologicalOrder', () => {
  it('orders a diamond, whatever the input order', () => {
    const nodes = [
      node('d', 'model', { dependsOn: ['model.p.c', 'model.p.b'] }),
      node('c', 'model', { dependsOn: ['model.p.a'] }),
      node('b', 'model', { dependsOn: ['model.p.a'] }),
      node('a'),
    ];
    expect(orderOf(nodes)).toEqual(['a', 'b', 'c', 'd']);
    expect(orderOf([...nodes].reverse())).toEqual(['a', 'b', 'c', 'd']);
  });

  it('orders a fan-out level by level, by name within a level', () => {
    const nodes = [
      node('root'),
      node('z', 'model', { dependsOn: ['model.p.root'] }),
      node('y', 'model', { dependsOn: ['model.p.root'] }),
      node('x', 'model', { dependsOn: ['model.p.root'] }),
      node('a_deep', 'model', { dependsOn: ['model.p.z'] }),
    ];
    expect(orderOf(nodes)).toEqual(['root', 'x', 'y', 'z', 'a_deep']);
  });

  it('uses the longest path from a root as depth', () => {
    const nodes = [
      node('a'),
      node('b', 'model', { dependsOn: ['model.p.a'] }),
      node('c', 'model', { dependsOn: ['model.p.a', 'model.p.b'] }),
      node('e'),
      node('f', 'model', { dependsOn: ['model.p.e'] }),
    ];
    expect(orderOf(nodes)).toEqual(['a', 'e', 'b', 'f', 'c']);
  });

  it('breaks ties by resource type (seed < source < model < test), then name, then unique id', () => {
    const other: GraphNode = { ...node('same'), uniqueId: 'model.q.same', packageName: 'q' };
    const nodes = [
      node('b_model'),
      node('a_test', 'test', { dependsOn: [] }),
      node('z_seed', 'seed'),
      node('y_source', 'source'),
      other,
      node('same'),
    ];
    expect(topologicalOrder(buildGraph(nodes))).toEqual([
      'seed.p.z_seed',
      'source.p.y_source',
      'model.p.b_model',
      'model.p.same',
      'model.q.same',
      'test.p.a_test',
    ]);
  });

  it('is deterministic on the brightcart project', () => {
    const nodes = brightcartNodes();
    const expected = [
      'seed.brightcart.raw_customers',
      'seed.brightcart.raw_orders',
      'source.brightcart.app.events',
      'source.brightcart.app.payments',
      'model.brightcart.stg_customers',
      'model.brightcart.stg_events',
      'model.brightcart.stg_orders',
      'model.brightcart.stg_payments',
      'model.brightcart.customer_orders',
      'model.brightcart.daily_revenue',
      'model.brightcart.events_daily',
      'test.brightcart.unique_stg_orders_id',
      'model.brightcart.revenue_report',
      'test.brightcart.not_null_daily_revenue_day',
    ];
    expect(topologicalOrder(buildGraph(nodes))).toEqual(expected);
    expect(topologicalOrder(buildGraph([...nodes].reverse()))).toEqual(expected);
  });

  it('orders only the given ids, keeping dependencies through unselected nodes', () => {
    const nodes = [
      node('z'),
      node('m', 'model', { dependsOn: ['model.p.z'] }),
      node('a', 'model', { dependsOn: ['model.p.m'] }),
      node('b'),
    ];
    expect(orderOf(nodes, ['model.p.a', 'model.p.z'])).toEqual(['z', 'a']);
    expect(orderOf(nodes, ['model.p.a', 'model.p.b'])).toEqual(['b', 'a']);
    expect(orderOf(nodes, [])).toEqual([]);
  });

  it('returns a fresh array each time', () => {
    const graph = buildGraph([node('a')]);
    topologicalOrder(graph).push('junk');
    expect(topologicalOrder(graph)).toEqual(['model.p.a']);
  });

  it('refuses ids that are not nodes', () => {
    expect(() => topologicalOrder(buildGraph([node('a')]), ['model.p.nope'])).toThrow(/model\.p\.nope/);
  });
});
