import { describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src/errors/project-error.js';
import { buildGraph } from '../../../src/graph/build-graph.js';
import { node } from './graph-fixture.js';

function thrown(fn: () => unknown): ProjectError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    return err as ProjectError;
  }
  throw new Error('expected a ProjectError');
}

describe('buildGraph', () => {
  it('indexes parents and children of every node, children sorted, duplicates dropped', () => {
    const graph = buildGraph([
      node('d', 'model', { dependsOn: ['model.p.c', 'model.p.b', 'model.p.b'] }),
      node('c', 'model', { dependsOn: ['model.p.a'] }),
      node('b', 'model', { dependsOn: ['model.p.a'] }),
      node('a'),
    ]);
    expect(graph.nodes.size).toBe(4);
    expect(graph.parents.get('model.p.d')).toEqual(['model.p.c', 'model.p.b']);
    expect(graph.parents.get('model.p.a')).toEqual([]);
    expect(graph.children.get('model.p.a')).toEqual(['model.p.b', 'model.p.c']);
    expect(graph.children.get('model.p.d')).toEqual([]);
  });

  it('reports a missing parent, naming the node and the missing id', () => {
    const err = thrown(() =>
      buildGraph([node('orders'), node('revenue', 'model', { dependsOn: ['model.p.order'] })]),
    );
    expect(err.message).toContain("'revenue' (model.p.revenue)");
    expect(err.message).toContain("depends on 'model.p.order'");
    expect(err.hint).toBe("did you mean 'model.p.orders'?");
    expect(err.location.file).toBe('models/revenue.sql');
    expect(err.exitCode).toBe(2);
  });

  it('reports every missing parent at once', () => {
    const err = thrown(() =>
      buildGraph([node('a', 'model', { dependsOn: ['model.p.x'] }), node('b', 'model', { dependsOn: ['model.p.y'] })]),
    );
    expect(err.format()).toContain("'model.p.x'");
    expect(err.format()).toContain("'model.p.y'");
  });

  it('rejects two nodes with the same unique id', () => {
    const err = thrown(() => buildGraph([node('a'), node('a', 'model', { path: 'models/other/a.sql' })]));
    expect(err.message).toContain("'model.p.a'");
    expect(err.message).toContain('models/other/a.sql');
  });

  it('prints the whole chain of a 3-node cycle, starting from the alphabetically first node', () => {
    // b refs a, c refs b, a refs c: edges a -> b -> c -> a (parent -> child)
    const err = thrown(() =>
      buildGraph([
        node('c', 'model', { dependsOn: ['model.p.b'] }),
        node('root'),
        node('b', 'model', { dependsOn: ['model.p.a'] }),
        node('a', 'model', { dependsOn: ['model.p.c', 'model.p.root'] }),
        node('downstream', 'model', { dependsOn: ['model.p.c'] }),
      ]),
    );
    expect(err.message).toBe('Found a cycle: model.p.a -> model.p.b -> model.p.c -> model.p.a');
    expect(err.exitCode).toBe(2);
  });

  it('starts the chain at the alphabetically first node even when it is listed last', () => {
    const err = thrown(() =>
      buildGraph([
        node('zeta', 'model', { dependsOn: ['model.p.mid'] }),
        node('mid', 'model', { dependsOn: ['model.p.alpha'] }),
        node('alpha', 'model', { dependsOn: ['model.p.zeta'] }),
      ]),
    );
    expect(err.message).toBe('Found a cycle: model.p.alpha -> model.p.mid -> model.p.zeta -> model.p.alpha');
  });

  it('prints a self-loop', () => {
    const err = thrown(() => buildGraph([node('base'), node('a', 'model', { dependsOn: ['model.p.a', 'model.p.base'] })]));
    expect(err.message).toBe('Found a cycle: model.p.a -> model.p.a');
    expect(err.exitCode).toBe(2);
    expect(err.location.file).toBe('models/a.sql');
  });

  it('reports the cycle holding the alphabetically first node when there are several', () => {
    const err = thrown(() =>
      buildGraph([
        node('x', 'model', { dependsOn: ['model.p.y'] }),
        node('y', 'model', { dependsOn: ['model.p.x'] }),
        node('k', 'model', { dependsOn: ['model.p.m'] }),
        node('m', 'model', { dependsOn: ['model.p.k'] }),
      ]),
    );
    expect(err.message).toBe('Found a cycle: model.p.k -> model.p.m -> model.p.k');
  });
});
