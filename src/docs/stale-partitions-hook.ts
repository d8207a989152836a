import { fastStale } from '../analysis/fast-stale.js';
import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { effectiveAsOf } from '../state/effective-as-of.js';
import type { Graph } from '../graph/graph-node.js';
import type { DocsStale } from './docs-data.js';

/**
 * The docs site's hook into `stale` analysis: an incremental model's stale
 * partitions by the fast (ledger-based) mode, as of everything landed so far
 * (or --vars as_of). Null for models without partitions; `unavailable` says
 * why when the analysis cannot answer (no ledger rows, no loaded_at upstream).
 */
export function stalePartitions(db: Warehouse | undefined, manifest: Manifest, graph: Graph, node: ModelNode): DocsStale | null {
  if (!db || node.settings.materialized !== 'incremental' || node.settings.partitionColumn === undefined) return null;
  let asOf: string | null = null;
  try {
    asOf = effectiveAsOf(db, manifest, graph, node.uniqueId);
    if (asOf === null) return { asOf, partitions: [], unavailable: 'no seed or source upstream declares loaded_at' };
    return { asOf, partitions: fastStale(db, manifest, graph, node, asOf).stale };
  } catch (err) {
    return { asOf, partitions: [], unavailable: err instanceof Error ? err.message : String(err) };
  }
}
