import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../../src/graph/build-graph.js';
import { buildOrder } from '../../../src/graph/build-order.js';
import { nodePrerequisites, widestLevel } from '../../../src/execute/node-prerequisites.js';
import { node } from '../graph/graph-fixture.js';

const graph = buildGraph([
  node('raw', 'seed'),
  node('eph', 'model', { dependsOn: ['seed.p.raw'] }),
  node('a', 'model', { dependsOn: ['seed.p.raw'] }),
  node('b', 'model', { dependsOn: ['model.p.eph'] }),
  node('c', 'model', { dependsOn: ['model.p.a', 'model.p.b'] }),
  node('d', 'model'),
  node('unique_a', 'test', { dependsOn: ['model.p.a'] }),
  node('ut_c', 'unit_test', { dependsOn: ['model.p.c'] }),
]);

/** The prerequisites of each node of a build (ephemeral `eph` left out, as a run leaves it), by name. */
function prerequisites(): Record<string, string[]> {
  const order = buildOrder(graph, graph.nodes.keys()).filter((id) => id !== 'model.p.eph');
  const name = (id: string) => id.split('.')[2]!;
  const before = nodePrerequisites(graph, order);
  return Object.fromEntries(order.map((id, i) => [name(id), before[i]!.map((p) => name(order[p]!)).sort()]));
}

describe('nodePrerequisites', () => {
  it('waits for ancestors in the run (through nodes not in it), for their tests, and a model for its unit test', () => {
    expect(prerequisites()).toEqual({
      raw: [],
      a: ['raw'],
      unique_a: ['a', 'raw'],
      // through the ephemeral model to the seed
      b: ['raw'],
      // the unit test runs before its model, after the model's upstream (and its tests)
      ut_c: ['a', 'b', 'raw', 'unique_a'],
      c: ['a', 'b', 'raw', 'unique_a', 'ut_c'],
      d: [],
    });
  });

  it('widestLevel: how many could run at once (a chain: one)', () => {
    expect(widestLevel([[], [0], [1], [2]])).toBe(1);
    expect(widestLevel([[], [], [], [0, 1, 2]])).toBe(3);
    const order = buildOrder(graph, graph.nodes.keys()).filter((id) => id !== 'model.p.eph');
    // raw and d; then a and b; then unique_a
    expect(widestLevel(nodePrerequisites(graph, order))).toBe(2);
  });
});
