import { ProjectError } from '../errors/project-error.js';
import type { Graph } from './graph-node.js';

/**
 * A cycle among `candidates`, following edges parent -> child, as the whole
 * chain `[a, b, c, a]`: the shortest cycle through the alphabetically first
 * candidate that lies on one. Undefined when the candidates hold no cycle.
 */
export function findCycle(
  children: ReadonlyMap<string, readonly string[]>,
  candidates: Iterable<string>,
): string[] | undefined {
  const sorted = [...new Set(candidates)].sort();
  const inScope = new Set(sorted);
  for (const start of sorted) {
    const cycle = shortestCycleThrough(children, start, inScope);
    if (cycle) return cycle;
  }
  return undefined;
}

function shortestCycleThrough(
  children: ReadonlyMap<string, readonly string[]>,
  start: string,
  inScope: ReadonlySet<string>,
): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    for (const child of children.get(id) ?? []) {
      if (!inScope.has(child)) continue;
      if (child === start) {
        const back: string[] = [];
        for (let cur = id; cur !== start; cur = previous.get(cur)!) back.push(cur);
        return [start, ...back.reverse(), start];
      }
      if (!previous.has(child)) {
        previous.set(child, id);
        queue.push(child);
      }
    }
  }
  return undefined;
}

/** `Found a cycle: model.p.a -> model.p.b -> model.p.a`, exit code 2. */
export function cycleError(graph: Graph, cycle: readonly string[]): ProjectError {
  const file = graph.nodes.get(cycle[0]!)?.path;
  return new ProjectError(`Found a cycle: ${cycle.join(' -> ')}`, {
    hint:
      cycle.length === 2
        ? 'a node cannot depend on itself; remove the ref() or source() to it'
        : 'each arrow points from a node to one that depends on it; remove one of these dependencies',
    location: file ? { file } : undefined,
    exitCode: 2,
  });
}
