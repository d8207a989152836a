import { didYouMean } from '../errors/did-you-mean.js';
import { ProjectError, ProjectErrors } from '../errors/project-error.js';
import type { Graph, GraphNode } from './graph-node.js';
import { topologicalOrder } from './topological-order.js';

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
  const children = new Map<string, string[]>();
  for (const id of byId.keys()) children.set(id, []);
  const problems: ProjectError[] = [];
  for (const node of byId.values()) {
    const dependsOn = node.dependsOn.length < 2 ? node.dependsOn : [...new Set(node.dependsOn)];
    for (const parentId of dependsOn) {
      const siblings = children.get(parentId);
      if (siblings) siblings.push(node.uniqueId);
      else problems.push(missingParentError(node, parentId, byId));
    }
    parents.set(node.uniqueId, dependsOn);
  }
  if (problems.length > 0) {
    problems.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
    throw problems.length === 1 ? problems[0]! : new ProjectErrors(problems);
  }
  for (const list of children.values()) if (list.length > 1) list.sort();

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
