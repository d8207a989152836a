import type { Manifest } from '../compile/manifest.js';
import type { RunContext } from '../invocation/run-context.js';
import type { NodeResult } from '../state/node-result.js';
import type { RunnableNode } from './run-node.js';

/** The nodes of `order` a run executes: seeds, snapshots, tests, unit tests and models that are not ephemeral. */
export function runnableNodes(manifest: Manifest, order: readonly string[]): RunnableNode[] {
  const snapshotsById = new Map([...(manifest.snapshots?.values() ?? [])].map((n) => [n.uniqueId, n]));
  return order
    .map((id) => manifest.nodes.get(id) ?? manifest.tests.get(id) ?? snapshotsById.get(id) ?? manifest.unitTests?.get(id))
    .filter((n): n is RunnableNode => n !== undefined && (n.resourceType === 'seed' || n.resourceType === 'test' || n.resourceType === 'unit_test' || n.resourceType === 'snapshot' || (n.resourceType === 'model' && n.settings.materialized !== 'ephemeral')));
}

/**
 * Why a node is skipped before it starts, if it is: a failed on-run-start
 * hook skips every node; --fail-fast, once a node failed, every node not
 * yet started (as dbt marks them).
 */
export function skipBeforeStart(options: { readonly skipAllBecause?: string; readonly context: Pick<RunContext, 'failFast'> }, results: readonly NodeResult[]): string | undefined {
  if (options.skipAllBecause !== undefined) return options.skipAllBecause;
  if (!options.context.failFast) return undefined;
  const firstFailure = results.find((r) => r.status === 'error' || r.status === 'fail' || r.status === 'partial success');
  return firstFailure ? `skipped by --fail-fast: ${firstFailure.name} failed` : undefined;
}
