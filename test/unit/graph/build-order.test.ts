import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../src/graph/build-graph.js';
import { buildOrder } from '../../../src/graph/build-order.js';
import { selectWithTests } from '../../../src/graph/select-with-tests.js';
import { node } from './graph-fixture.js';

const graph = buildGraph([
  node('raw', 'seed'),
  node('a', 'model', { dependsOn: ['seed.p.raw'] }),
  node('b', 'model', { dependsOn: ['seed.p.raw'] }),
  node('c', 'model', { dependsOn: ['model.p.a', 'model.p.b'] }),
  node('unique_a', 'test', { dependsOn: ['model.p.a'] }),
  node('not_null_raw', 'test', { dependsOn: ['seed.p.raw'] }),
  node('rel_c_a', 'test', { dependsOn: ['model.p.c', 'model.p.a'] }),
]);

describe('buildOrder', () => {
  it("puts each test right after the last of its parents, before that node's children", () => {
    expect(buildOrder(graph, graph.nodes.keys()).map((id) => id.split('.')[2])).toEqual(['raw', 'not_null_raw', 'a', 'unique_a', 'b', 'c', 'rel_c_a']);
  });

  it('runs tests whose parents are not selected first', () => {
    expect(buildOrder(graph, ['test.p.unique_a', 'model.p.b'])).toEqual(['test.p.unique_a', 'model.p.b']);
  });
});

describe('selectWithTests (eager indirect selection)', () => {
  it('adds the tests of selected nodes, then filters by resource type', () => {
    expect([...selectWithTests(graph, { select: ['a'] })].sort()).toEqual(['model.p.a', 'test.p.rel_c_a', 'test.p.unique_a']);
    expect([...selectWithTests(graph, { select: ['raw'], resourceTypes: ['test'] })]).toEqual(['test.p.not_null_raw']);
  });

  it('keeps a test out when --exclude names it', () => {
    expect([...selectWithTests(graph, { select: ['a'], exclude: ['unique_a'] })].sort()).toEqual(['model.p.a', 'test.p.rel_c_a']);
  });
});
