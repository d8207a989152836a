import type { Graph } from '../graph/graph-node.js';
import { namedSelection } from '../graph/named-selector.js';
import type { SelectionState } from '../graph/selection-state.js';
import { loadSelectorsFile } from '../project/selectors-file.js';

/**
 * dbt's named selectors: with --selector NAME, the nodes selectors.yml's
 * NAME selects (--select and --exclude are then ignored, as in dbt); with
 * none of --select, --exclude and --selector, the selector marked
 * `default: true`, if any (its name is returned for the "Using default
 * selector" line). Otherwise nothing: the selection is --select's.
 */
export function namedSelectionBase(
  options: { readonly select?: readonly string[]; readonly exclude?: readonly string[]; readonly selector?: string },
  projectRoot: string, graph: Graph, state?: SelectionState,
): { readonly base?: ReadonlySet<string>; readonly defaultName?: string } {
  const given = (values: readonly string[] | undefined) => (values ?? []).some((v) => v.trim() !== '');
  if (options.selector === undefined && (given(options.select) || given(options.exclude))) return {};
  const selectors = loadSelectorsFile(projectRoot);
  const stateOption = state ? { state } : {};
  if (options.selector !== undefined) return { base: namedSelection(graph, selectors, options.selector, stateOption) };
  const fallback = selectors.find((s) => s.default);
  return fallback ? { base: namedSelection(graph, selectors, fallback.name, stateOption), defaultName: fallback.name } : {};
}
