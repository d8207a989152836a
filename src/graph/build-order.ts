import type { Graph } from './graph-node.js';
import { topologicalOrder } from './topological-order.js';

/**
 * The order `build` runs in: the topological order of the selected nodes,
 * with each data test moved to right after the last of its selected parents
 * (so a model's tests run before anything that depends on it). Tests whose
 * parents are all unselected come first.
 */
export function buildOrder(graph: Graph, ids: Iterable<string>): string[] {
  const order = topologicalOrder(graph, ids);
  const selected = new Set(order);
  const tests = order.filter((id) => graph.nodes.get(id)!.resourceType === 'test');
  const waiting = new Map<string, string[]>();
  const out: string[] = [];
  for (const test of tests) {
    const parents = (graph.parents.get(test) ?? []).filter((p) => selected.has(p));
    const last = order.filter((id) => parents.includes(id)).pop();
    if (last === undefined) out.push(test);
    else waiting.set(last, [...(waiting.get(last) ?? []), test]);
  }
  for (const id of order) {
    if (graph.nodes.get(id)!.resourceType === 'test') continue;
    out.push(id, ...(waiting.get(id) ?? []));
  }
  return out;
}
