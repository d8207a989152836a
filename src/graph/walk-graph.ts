import type { Graph } from './graph-node.js';

/**
 * The nodes reachable from `starts` along `edges` (parents or children) in at
 * most `depth` steps (unlimited when undefined). A start is only in the result
 * when another start reaches it.
 */
export function walkGraph(
  edges: ReadonlyMap<string, readonly string[]>,
  starts: Iterable<string>,
  depth?: number,
): Set<string> {
  const startSet = new Set(starts);
  const seen = new Set(startSet);
  const reachedStarts = new Set<string>();
  let frontier = [...startSet];
  for (let level = 0; frontier.length > 0 && (depth === undefined || level < depth); level++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const neighbour of edges.get(id) ?? []) {
        if (!seen.has(neighbour)) {
          seen.add(neighbour);
          next.push(neighbour);
        } else if (startSet.has(neighbour)) {
          reachedStarts.add(neighbour);
        }
      }
    }
    frontier = next;
  }
  for (const id of startSet) if (!reachedStarts.has(id)) seen.delete(id);
  return seen;
}

/** Unique ids of the ancestors of `id` up to `depth` levels (all when undefined), without `id`. */
export function ancestors(graph: Graph, id: string, depth?: number): Set<string> {
  assertNode(graph, id);
  return walkGraph(graph.parents, [id], depth);
}

/** Unique ids of the descendants of `id` up to `depth` levels (all when undefined), without `id`. */
export function descendants(graph: Graph, id: string, depth?: number): Set<string> {
  assertNode(graph, id);
  return walkGraph(graph.children, [id], depth);
}

function assertNode(graph: Graph, id: string): void {
  if (!graph.nodes.has(id)) throw new Error(`'${id}' is not a node of the graph`);
}
