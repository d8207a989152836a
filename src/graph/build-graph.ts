import { didYouMean } from '../errors/did-you-mean.js';
import { ProjectError, ProjectErrors } from '../errors/project-error.js';
import type { Graph, GraphNode } from './graph-node.js';
import { topologicalOrder } from './topological-order.js';

const NO_CHILDREN: readonly string[] = Object.freeze([]);

/**
 * The DAG of `nodes`. Throws a ProjectError when two nodes share a unique id,
 * when a node depends on an id that is not a node, and when the dependencies
 * form a cycle (`Found a cycle: a -> b -> a`, exit code 2).
 */
export function buildGraph(nodes: readonly GraphNode[]): Graph {
  const byId = new Map<string, GraphNode>();
  for (const node of nodes) {
    const existing = byId.get(node.uniqueId);
    if (existing) {
      throw new ProjectError(
        `Two nodes have the unique id '${node.uniqueId}': ${existing.path} and ${node.path}`,
        { hint: 'names must be unique within a resource type; rename one of them', location: { file: node.path } },
      );
    }
    byId.set(node.uniqueId, node);
  }

  const parents = new Map<string, readonly string[]>();
  const children = new Map<string, readonly string[]>();
  const problems: ProjectError[] = [];
  for (const node of byId.values()) {
    const dependsOn = node.dependsOn.length < 2 ? node.dependsOn : [...new Set(node.dependsOn)];
    for (const parentId of dependsOn) {
      if (!byId.has(parentId)) {
        problems.push(missingParentError(node, parentId, byId));
        continue;
      }
      const siblings = children.get(parentId) as string[] | undefined;
      if (siblings) siblings.push(node.uniqueId);
      else children.set(parentId, [node.uniqueId]);
    }
    parents.set(node.uniqueId, dependsOn);
  }
  if (problems.length > 0) {
    problems.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
    throw problems.length === 1 ? problems[0]! : new ProjectErrors(problems);
  }
  for (const id of byId.keys()) {
    const list = children.get(id) as string[] | undefined;
    if (!list) children.set(id, NO_CHILDREN);
    else if (list.length > 1) list.sort();
  }

  const graph: Graph = { nodes: byId, parents, children };
  topologicalOrder(graph); // throws on a cycle; caches the order
  return graph;
}

function missingParentError(node: GraphNode, parentId: string, byId: ReadonlyMap<string, GraphNode>): ProjectError {
  const best = didYouMean(parentId, [...byId.keys()]);
  return new ProjectError(
    `${node.resourceType} '${node.name}' (${node.uniqueId}) depends on '${parentId}', which is not a node of the project`,
    { hint: best ? `did you mean '${best}'?` : undefined, location: { file: node.path } },
  );
}
