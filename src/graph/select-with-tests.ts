import type { Graph } from './graph-node.js';
import { selectNodes, type SelectionOptions } from './select-nodes.js';

/**
 * selectNodes with dbt's eager indirect selection: a data test is selected
 * when any node it tests (any parent) is selected, unless `--exclude`
 * matches the test itself. Then the resource-type filter applies.
 */
export function selectWithTests(graph: Graph, options: SelectionOptions): Set<string> {
  const selected = selectNodes(graph, { select: options.select, exclude: options.exclude });
  const excluded = options.exclude && options.exclude.some((e) => e.trim() !== '') ? selectNodes(graph, { select: options.exclude }) : new Set<string>();
  for (const [id, node] of graph.nodes) {
    if (node.resourceType !== 'test' || selected.has(id) || excluded.has(id)) continue;
    if ((graph.parents.get(id) ?? []).some((p) => selected.has(p))) selected.add(id);
  }
  const types = options.resourceTypes;
  if (types && types.length > 0) {
    for (const id of selected) if (!types.includes(graph.nodes.get(id)!.resourceType)) selected.delete(id);
  }
  return selected;
}
