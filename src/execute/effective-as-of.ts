import type { Manifest, ManifestNode } from '../compile/manifest.js';
import type { Warehouse } from '../db/open-warehouse.js';
import { quoteIdentifier } from '../db/quote-identifier.js';
import { relationKind } from '../db/relation-kind.js';
import { ancestors } from '../graph/walk-graph.js';
import type { Graph } from '../graph/graph-node.js';

/** Seeds and sources upstream of a node that declare a loaded_at column. */
export function timeSourcesOf(manifest: Manifest, graph: Graph, uniqueId: string): ManifestNode[] {
  return [...ancestors(graph, uniqueId)]
    .map((id) => manifest.nodes.get(id))
    .filter((n): n is ManifestNode => n !== undefined && n.resourceType !== 'model' && typeof n.config.loaded_at === 'string');
}

/**
 * The as-of a run of this node sees: the `as_of` var when given, else
 * everything landed so far (the latest loaded_at upstream). Null when the
 * model has no time-declared source.
 */
export function effectiveAsOf(db: Warehouse, manifest: Manifest, graph: Graph, uniqueId: string): string | null {
  const declared = manifest.vars.as_of;
  if (declared !== undefined && declared !== null && declared !== '') return String(declared);
  let latest: string | null = null;
  for (const source of timeSourcesOf(manifest, graph, uniqueId)) {
    if (relationKind(db, source.alias) === null) continue;
    const value = db.prepare(`select max(${quoteIdentifier(String(source.config.loaded_at))}) from ${quoteIdentifier(source.alias)}`).pluck().get();
    if (value !== null && value !== undefined && (latest === null || String(value) > latest)) latest = String(value);
  }
  return latest;
}
