import type { VersionValue } from '../project/model-version.js';
import type { ResourceType } from '../graph/graph-node.js';
import { namedSelectionBase } from './named-selection.js';
import { resolve } from 'node:path';
import { selectionState } from './selection-state.js';
import { readsState, type SelectionState } from '../graph/selection-state.js';
import { loadSession } from './session.js';
import { selectWithTests, type IndirectSelection } from '../graph/select-with-tests.js';
import { topologicalOrder } from '../graph/topological-order.js';
import { loadGraphWithCache } from '../parse/graph-cache.js';
import type { VouchedInputs } from '../parse/ls-answer-cache.js';
import type { SessionOptions } from './session.js';

export interface ListOptions extends SessionOptions {
  readonly select?: readonly string[];
  readonly exclude?: readonly string[];
  readonly resourceTypes?: readonly ResourceType[];
  /** Which data tests come along with what they test (dbt's --indirect-selection; default eager). */
  readonly indirectSelection?: IndirectSelection;
}

export interface ListedNode {
  readonly uniqueId: string;
  readonly name: string;
  readonly resourceType: ResourceType;
  /** dbt's fully qualified name: project, folders, name (a source: project, source, table). */
  readonly fqn: readonly string[];
  readonly path: string;
  readonly materialized?: string;
  /** The node's config as written (what dbt's `ls --output json` prints); tests: their config. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly tags: readonly string[];
  readonly dependsOn: readonly string[];
  /** The package (project) that defines it. */
  readonly packageName: string;
  /** A versioned model's version and its model's latest (its name is then `<model>.v<v>`, dbt's search name). */
  readonly version?: VersionValue;
  readonly latestVersion?: VersionValue;
}

/** `ls`: the selected nodes in build order (an unchanged project's graph comes from the graph cache, parse/graph-cache.ts). */
export function listNodes(options: ListOptions = {}): ListedNode[] {
  return listNodesVouched(options).nodes;
}

/** listNodes, and what the graph cache vouched for when it served or kept the graph (the CLI's ls keeps its answer with it: parse/ls-answer-cache.ts). */
export function listNodesVouched(options: ListOptions = {}): { nodes: ListedNode[]; vouched?: VouchedInputs } {
  const { graph, materialized, vouched } = loadGraphWithCache(options.projectDir ?? process.cwd(), {
    database: options.database, vars: options.vars, profilesDir: options.profilesDir, profile: options.profile, target: options.target, ...(options.partialParse === false ? { partialParse: false } : {}),
    ...(options.targetPath !== undefined ? { targetPath: options.targetPath } : {}),
  });
  // A state: or result: selector compares nodes with the --state manifest: that needs the whole manifest, not the cached graph.
  // (A named selector may use them too: with --state given and a --selector, the manifest is loaded as well.)
  const stateSelection: SelectionState | undefined = options.state !== undefined && (readsState(options.select) || readsState(options.exclude) || options.selector !== undefined)
    ? (() => { const session = loadSession(options); return selectionState(options.state!, session.manifest, session.graph); })()
    : undefined;
  const state = stateSelection ? { state: stateSelection } : {};
  const named = namedSelectionBase(options, resolve(options.projectDir ?? process.cwd()), graph, stateSelection);
  // Data tests come along with what they test (dbt's indirect selection).
  const selected = selectWithTests(graph, { select: options.select, exclude: options.exclude, resourceTypes: options.resourceTypes, indirectSelection: options.indirectSelection, ...state, ...(named.base ? { base: named.base } : {}) });
  const nodes = topologicalOrder(graph, selected).map((id): ListedNode => {
    const n = graph.nodes.get(id)!;
    return {
      uniqueId: n.uniqueId,
      name: n.name,
      resourceType: n.resourceType,
      fqn: n.fqn,
      path: n.path,
      materialized: n.resourceType === 'model' ? materialized.get(id) : n.resourceType === 'snapshot' ? 'snapshot' : undefined,
      // Every node's graph entry carries its config (a model's, a test's, a snapshot's).
      config: n.config ?? {},
      tags: n.tags,
      dependsOn: n.dependsOn,
      packageName: n.packageName,
      ...(n.version !== undefined ? { version: n.version, latestVersion: n.latestVersion } : {}),
    };
  });
  return vouched ? { nodes, vouched } : { nodes };
}
