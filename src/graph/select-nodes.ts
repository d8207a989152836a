import type { Graph, ResourceType } from './graph-node.js';
import { matchMethod } from './match-method.js';
import { noMatchError } from './no-match-error.js';
import { parseSelection, type SelectorCriterion } from './parse-selector.js';
import { walkGraph } from './walk-graph.js';
import type { SelectionState } from './selection-state.js';

export interface SelectionOptions {
  /** `--select` values; none (or only blanks) selects every node, sources included. */
  readonly select?: readonly string[];
  /** `--exclude` values, subtracted from the selection. */
  readonly exclude?: readonly string[];
  /** Keep only nodes of these types (no filter when absent or empty). */
  readonly resourceTypes?: readonly ResourceType[];
  /** What `state:` and `result:` compare against (dbt's --state); without it they are an error. */
  readonly state?: SelectionState;
  /** The nodes a named selector (selectors.yml, --selector) chose: used instead of select and exclude, as dbt ignores those with --selector. */
  readonly base?: ReadonlySet<string>;
}

/**
 * Unique ids of the selected nodes, with dbt's grammar: each value is split on
 * whitespace (union), each token on commas (intersection); excludes are
 * subtracted afterwards, then the resource-type filter applies.
 *
 * Throws ProjectError for a malformed selector, an unknown method, or a
 * selector (in select or exclude) that matches no node. An empty final
 * selection is not an error: it returns the empty set.
 */
export function selectNodes(graph: Graph, options: SelectionOptions): Set<string> {
  const names = new Set([...graph.nodes.values()].map((n) => n.name));
  const isNodeName = (name: string) => names.has(name);
  const select = parseSelection(options.select ?? [], isNodeName);
  const exclude = parseSelection(options.exclude ?? [], isNodeName);

  const selected = options.base ? new Set(options.base) : select.length === 0 ? new Set(graph.nodes.keys()) : evaluateUnion(graph, select, options.state);
  if (!options.base && exclude.length > 0) {
    for (const id of evaluateUnion(graph, exclude, options.state)) selected.delete(id);
  }
  const types = options.resourceTypes;
  if (types && types.length > 0) {
    const allowed = new Set<ResourceType>(types);
    for (const id of selected) {
      if (!allowed.has(graph.nodes.get(id)!.resourceType)) selected.delete(id);
    }
  }
  return selected;
}

function evaluateUnion(graph: Graph, tokens: readonly (readonly SelectorCriterion[])[], state: SelectionState | undefined): Set<string> {
  let union = new Set<string>();
  for (const criteria of tokens) {
    let intersection: Set<string> | undefined;
    for (const criterion of criteria) {
      const matched = evaluateCriterion(graph, criterion, state);
      intersection = intersection ? new Set([...intersection].filter((id) => matched.has(id))) : matched;
    }
    union = merge(union, intersection ?? new Set());
  }
  return union;
}

function evaluateCriterion(graph: Graph, criterion: SelectorCriterion, state: SelectionState | undefined): Set<string> {
  const base = matchMethod(graph, criterion, state);
  // Nothing modified (or nothing that failed) is an answer, not a mistyped name: as in dbt, no error.
  if (base.size === 0 && criterion.method !== 'state' && criterion.method !== 'result') throw noMatchError(graph, criterion);
  let result = new Set(base);
  if (criterion.parents) result = merge(result, walkGraph(graph.parents, base, criterion.parentsDepth));
  if (criterion.children) result = merge(result, walkGraph(graph.children, base, criterion.childrenDepth));
  if (criterion.childrensParents) {
    const downstream = walkGraph(graph.children, base);
    result = merge(result, downstream);
    result = merge(result, walkGraph(graph.parents, [...base, ...downstream]));
  }
  return result;
}

/** The union of two sets this module owns, built by adding the smaller one to the larger. */
function merge(a: Set<string>, b: Set<string>): Set<string> {
  const [large, small] = a.size >= b.size ? [a, b] : [b, a];
  for (const id of small) large.add(id);
  return large;
}
