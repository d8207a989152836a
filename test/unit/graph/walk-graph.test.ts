import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../src/graph/build-graph.js';
import { ancestors, descendants, walkGraph } from '../../../src/graph/walk-graph.js';
import { node } from './graph-fixture.js';

const graph = buildGraph([
  node('a'),
  node('b', 'model', { dependsOn: ['model.p.a'] }),
  node('c', 'model', { dependsOn: ['model.p.b'] }),
  node('d', 'model', { dependsOn: ['model.p.c', 'model.p.a'] }),
]);

const sorted = (ids: Set<string>): string[] => [...ids].sort();

describe('ancestors / descendants', () => {
  it('walks all levels by default, without the node itself', () => {
    expect(sorted(ancestors(graph, 'model.p.d'))).toEqual(['model.p.a', 'model.p.b', 'model.p.c']);
    expect(sorted(descendants(graph, 'model.p.a'))).toEqual(['model.p.b', 'model.p.c', 'model.p.d']);
    expect(sorted(descendants(graph, 'model.p.d'))).toEqual([]);
  });

  it('stops at the given depth, counting the shortest path', () => {
    expect(sorted(ancestors(graph, 'model.p.d', 1))).toEqual(['model.p.a', 'model.p.c']);
    expect(sorted(descendants(graph, 'model.p.a', 1))).toEqual(['model.p.b', 'model.p.d']);
    expect(sorted(descendants(graph, 'model.p.a', 0))).toEqual([]);
  });

  it('walks from several starts at once', () => {
    expect(sorted(walkGraph(graph.children, ['model.p.b', 'model.p.c'], 1))).toEqual(['model.p.c', 'model.p.d']);
  });

  it('refuses unknown ids', () => {
    expect(() => ancestors(graph, 'model.p.zz')).toThrow(/model\.p\.zz/);
  });
});
