import type { Manifest } from '../compile/manifest.js';
import type { Graph } from '../graph/graph-node.js';
import { manifestJson } from './manifest-json.js';

/** dbt's `graph` context variable: the manifest's nodes and sources as dicts, as manifest.json has them. */
export interface GraphContext {
  readonly nodes: Record<string, unknown>;
  readonly sources: Record<string, unknown>;
  readonly exposures: Record<string, unknown>;
  readonly metrics: Record<string, unknown>;
  readonly groups: Record<string, unknown>;
  readonly semantic_models: Record<string, unknown>;
  readonly saved_queries: Record<string, unknown>;
}

const built = new WeakMap<Manifest, { readonly graph: Graph; readonly context: GraphContext }>();

/**
 * The `graph` a template sees while a command runs (macros that walk
 * `graph.nodes.values()`, as many packages do): built from the manifest the
 * first time a template asks, then kept for the manifest.
 */
export function graphContext(manifest: Manifest, graph: Graph): GraphContext {
  const cached = built.get(manifest);
  if (cached?.graph === graph) return cached.context;
  const json = manifestJson(manifest, graph, 'graph');
  const context: GraphContext = {
    nodes: json.nodes as Record<string, unknown>,
    sources: json.sources as Record<string, unknown>,
    exposures: json.exposures as Record<string, unknown>, metrics: {}, groups: {}, semantic_models: {}, saved_queries: {},
  };
  built.set(manifest, { graph, context });
  return context;
}
