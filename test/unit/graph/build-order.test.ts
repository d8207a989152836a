import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../src/graph/build-graph.js';
import { buildOrder } from '../../../src/graph/build-order.js';
import { indirectSelectionMode, selectWithTests } from '../../../src/graph/select-with-tests.js';
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

describe('selectWithTests: --indirect-selection modes', () => {
  const tests = (select: string[], mode: 'eager' | 'cautious' | 'buildable' | 'empty') =>
    [...selectWithTests(graph, { select, resourceTypes: ['test'], indirectSelection: mode })].map((id) => id.split('.')[2]).sort();

  it('eager: any parent selected; cautious: every parent; empty: none but tests named', () => {
    expect(tests(['c'], 'eager')).toEqual(['rel_c_a']);
    expect(tests(['c'], 'cautious')).toEqual([]);
    expect(tests(['a', 'c'], 'cautious')).toEqual(['rel_c_a', 'unique_a']);
    expect(tests(['a', 'c'], 'empty')).toEqual([]);
    expect(tests(['a', 'unique_a'], 'empty')).toEqual(['unique_a']);
  });

  it('buildable: every parent selected or upstream of the selection, at least one selected', () => {
    // rel_c_a tests c and a; a is upstream of c, so building c can run it.
    expect(tests(['c'], 'buildable')).toEqual(['rel_c_a']);
    // Selecting a alone: c is downstream, not buildable.
    expect(tests(['a'], 'buildable')).toEqual(['unique_a']);
    // A test only on an upstream node is not brought along (no parent selected).
    expect(tests(['c'], 'buildable')).not.toContain('unique_a');
  });

  it('reads a mode by name (DBT_INDIRECT_SELECTION too), with the closest name for a typo', () => {
    expect(indirectSelectionMode('Cautious')).toBe('cautious');
    expect(indirectSelectionMode(undefined)).toBeUndefined();
    expect(() => indirectSelectionMode('eagr')).toThrow(/must be one of eager, cautious, buildable, empty, got 'eagr'\. Did you mean 'eager'\?/);
  });
});
