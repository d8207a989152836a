import type { Graph } from './graph-node.js';
import { topologicalOrder } from './topological-order.js';

/**
 * The order `build` runs in: the topological order of the selected nodes,
 * with each data test moved to right after the last of its selected parents
 * (so a model's tests run before anything that depends on it), and each unit
 * test moved to right before its model. Tests whose parents are all
 * unselected come first.
 */
export function buildOrder(graph: Graph, ids: Iterable<string>): string[] {
  const order = topologicalOrder(graph, ids);
  const selected = new Set(order);
  const tests = order.filter((id) => graph.nodes.get(id)!.resourceType === 'test');
  // Unit tests run just before the model they test (dbt build: a failing one skips the model).
  const unitTestsOf = new Map<string, string[]>();
  const unitTests = order.filter((id) => graph.nodes.get(id)!.resourceType === 'unit_test');
  for (const id of unitTests) {
    const model = graph.parents.get(id)?.[0];
    if (model !== undefined && selected.has(model)) unitTestsOf.set(model, [...(unitTestsOf.get(model) ?? []), id]);
  }
  const waiting = new Map<string, string[]>();
  const out: string[] = [];
  for (const test of tests) {
    const parents = (graph.parents.get(test) ?? []).filter((p) => selected.has(p));
    const last = order.filter((id) => parents.includes(id)).pop();
    if (last === undefined) out.push(test);
    else waiting.set(last, [...(waiting.get(last) ?? []), test]);
  }
  for (const id of unitTests) {
    const model = graph.parents.get(id)?.[0];
    if (model === undefined || !selected.has(model)) out.push(id);
  }
  for (const id of order) {
    const type = graph.nodes.get(id)!.resourceType;
    if (type === 'test' || type === 'unit_test') continue;
    out.push(...(unitTestsOf.get(id) ?? []), id, ...(waiting.get(id) ?? []));
  }
  return out;
}
