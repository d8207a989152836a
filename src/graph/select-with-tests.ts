import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import type { Graph } from './graph-node.js';
import { selectNodes, type SelectionOptions } from './select-nodes.js';
import { ancestors } from './walk-graph.js';

/** dbt's --indirect-selection modes. */
export const INDIRECT_SELECTION_MODES = ['eager', 'cautious', 'buildable', 'empty'] as const;
export type IndirectSelection = (typeof INDIRECT_SELECTION_MODES)[number];

/** A mode name as given on the command line or in DBT_INDIRECT_SELECTION; undefined stays the default (eager). */
export function indirectSelectionMode(value: string | undefined): IndirectSelection | undefined {
  if (value === undefined || value === '') return undefined;
  const mode = value.toLowerCase();
  if ((INDIRECT_SELECTION_MODES as readonly string[]).includes(mode)) return mode as IndirectSelection;
  throw new ProjectError(`--indirect-selection must be one of ${INDIRECT_SELECTION_MODES.join(', ')}, got '${value}'.${didYouMeanSuffix(mode, INDIRECT_SELECTION_MODES)}`);
}

/**
 * selectNodes plus dbt's indirect selection of data tests (and unit tests, by their model), by what they test
 * (their parents), unless `--exclude` matches the test itself:
 * eager (default): any parent selected; cautious: every parent selected;
 * buildable: one parent selected and every parent selected, upstream of the
 * selection or a source (so a test between a model and what it reads is
 * kept); empty: no
 * test is selected indirectly (only tests the selection names). Then the
 * resource-type filter applies.
 */
export function selectWithTests(graph: Graph, options: SelectionOptions & { readonly indirectSelection?: IndirectSelection }): Set<string> {
  const selected = selectNodes(graph, { select: options.select, exclude: options.exclude, ...(options.state ? { state: options.state } : {}), ...(options.base ? { base: options.base } : {}) });
  const excluded = !options.base && options.exclude && options.exclude.some((e) => e.trim() !== '') ? selectNodes(graph, { select: options.exclude, ...(options.state ? { state: options.state } : {}) }) : new Set<string>();
  const mode = options.indirectSelection ?? 'eager';
  if (mode !== 'empty') {
    let upstream: Set<string> | undefined;
    const buildable = (id: string): boolean => {
      if (!upstream) {
        upstream = new Set<string>();
        for (const s of selected) for (const a of ancestors(graph, s)) upstream.add(a);
      }
      return selected.has(id) || upstream.has(id) || graph.nodes.get(id)?.resourceType === 'source';
    };
    const chosen: string[] = [];
    for (const [id, node] of graph.nodes) {
      if ((node.resourceType !== 'test' && node.resourceType !== 'unit_test') || selected.has(id) || excluded.has(id)) continue;
      const parents = graph.parents.get(id) ?? [];
      if (parents.length === 0) continue;
      const take = mode === 'eager' ? parents.some((p) => selected.has(p))
        : mode === 'cautious' ? parents.every((p) => selected.has(p))
        : parents.some((p) => selected.has(p)) && parents.every(buildable);
      if (take) chosen.push(id);
    }
    for (const id of chosen) selected.add(id);
  }
  const types = options.resourceTypes;
  if (types && types.length > 0) {
    for (const id of selected) if (!types.includes(graph.nodes.get(id)!.resourceType)) selected.delete(id);
  }
  return selected;
}
