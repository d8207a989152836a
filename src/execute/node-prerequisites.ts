import type { Graph } from '../graph/graph-node.js';

/**
 * For each node of a run (by its position in `order`, a valid sequential
 * order), the positions of the earlier nodes that must have finished before
 * it starts: its ancestors in the run, and the data and unit tests of it or
 * of its ancestors (a failing test skips what depends on the tested node in
 * build; a unit test runs before its model). Ancestors are followed through
 * nodes that are not in the run (ephemeral models, sources, unselected
 * nodes). Every prerequisite comes earlier in `order`, so a scheduler that
 * starts a node once they finished never waits in a cycle, and the skips
 * come out as a sequential run decides them.
 */
export function nodePrerequisites(graph: Graph, order: readonly string[]): number[][] {
  const ancestors = new Map<string, Set<string>>();
  const ancestorsOf = (id: string): Set<string> => {
    const known = ancestors.get(id);
    if (known) return known;
    const found = new Set<string>();
    ancestors.set(id, found);
    for (const parent of graph.parents.get(id) ?? []) {
      found.add(parent);
      for (const a of ancestorsOf(parent)) found.add(a);
    }
    return found;
  };
  const isTest = (id: string): boolean => {
    const type = graph.nodes.get(id)?.resourceType;
    return type === 'test' || type === 'unit_test';
  };
  return order.map((id, at) => {
    const upstream = ancestorsOf(id);
    const before: number[] = [];
    for (let earlier = 0; earlier < at; earlier++) {
      const other = order[earlier]!;
      if (upstream.has(other)) before.push(earlier);
      else if (isTest(other) && (graph.parents.get(other) ?? []).some((p) => p === id || upstream.has(p))) before.push(earlier);
    }
    return before;
  });
}

/**
 * How many nodes could ever run at once: the most nodes on one level, a
 * node's level being one past its deepest prerequisite's. A pool needs no
 * more threads than that (a chain of nodes needs one).
 */
export function widestLevel(prerequisites: readonly (readonly number[])[]): number {
  const level: number[] = [];
  const count = new Map<number, number>();
  for (const [i, before] of prerequisites.entries()) {
    level[i] = before.reduce((deepest, p) => Math.max(deepest, level[p]! + 1), 0);
    count.set(level[i]!, (count.get(level[i]!) ?? 0) + 1);
  }
  return Math.max(0, ...count.values());
}
