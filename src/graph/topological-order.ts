import { cycleError, findCycle } from './find-cycle.js';
import { RESOURCE_TYPES, type Graph } from './graph-node.js';

const TYPE_RANK = new Map(RESOURCE_TYPES.map((type, i) => [type, i]));
const fullOrders = new WeakMap<Graph, readonly string[]>();

/**
 * Unique ids, parents before children. Kahn's algorithm; among the nodes that
 * are ready it takes the one with the smallest (depth from the roots, i.e.
 * longest path from a node without parents; resource type seed < source <
 * model < test; name; unique id), so the order is stable and deterministic.
 *
 * With `ids`, only those nodes are returned, in the same relative order as in
 * the whole graph: dependencies through unselected nodes still count.
 * Throws the "Found a cycle" ProjectError when the graph is not a DAG.
 */
export function topologicalOrder(graph: Graph, ids?: Iterable<string>): string[] {
  let order = fullOrders.get(graph);
  if (!order) {
    order = computeOrder(graph);
    fullOrders.set(graph, order);
  }
  if (ids === undefined) return [...order];
  const wanted = new Set(ids);
  for (const id of wanted) {
    if (!graph.nodes.has(id)) throw new Error(`topologicalOrder: '${id}' is not a node of the graph`);
  }
  return order.filter((id) => wanted.has(id));
}

/**
 * Kahn's algorithm with the priority above comes down to taking the graph
 * level by level (a node's depth is one more than its deepest parent's, so
 * every node of a level is ready before the first one of that level is taken)
 * and sorting each level by (resource type, name, unique id).
 */
function computeOrder(graph: Graph): string[] {
  const nodes = [...graph.nodes.values()];
  const indexOf = new Map<string, number>();
  const waitingOn = new Int32Array(nodes.length);
  const ranks = new Int32Array(nodes.length);
  let level: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    indexOf.set(node.uniqueId, i);
    ranks[i] = TYPE_RANK.get(node.resourceType) ?? RESOURCE_TYPES.length;
    waitingOn[i] = graph.parents.get(node.uniqueId)?.length ?? 0;
    if (waitingOn[i] === 0) level.push(i);
  }
  const compare = (a: number, b: number): number => {
    if (ranks[a] !== ranks[b]) return ranks[a]! - ranks[b]!;
    const x = nodes[a]!;
    const y = nodes[b]!;
    if (x.name !== y.name) return x.name < y.name ? -1 : 1;
    return x.uniqueId < y.uniqueId ? -1 : x.uniqueId > y.uniqueId ? 1 : 0;
  };

  const order: string[] = [];
  while (level.length > 0) {
    level.sort(compare);
    const next: number[] = [];
    for (const i of level) {
      const id = nodes[i]!.uniqueId;
      order.push(id);
      for (const child of graph.children.get(id) ?? []) {
        const c = indexOf.get(child)!;
        if (--waitingOn[c] === 0) next.push(c);
      }
    }
    level = next;
  }

  if (order.length < nodes.length) {
    const stuck = nodes.filter((_, i) => waitingOn[i]! > 0).map((node) => node.uniqueId);
    const cycle = findCycle(graph.children, stuck);
    if (!cycle) throw new Error('topologicalOrder: parents and children of the graph disagree');
    throw cycleError(graph, cycle);
  }
  return order;
}
