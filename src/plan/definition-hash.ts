import { createHash } from 'node:crypto';
import type { Manifest, ModelNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import type { Graph } from '../graph/graph-node.js';
import { ancestors } from '../graph/walk-graph.js';

/** The night every definition is rendered at: a run's own as_of (and its start and end) say which rows it writes, not how. */
const FIXED_AS_OF = '1970-01-01';

const cache = new WeakMap<Manifest, Map<string, string | null>>();

/**
 * A fingerprint of how a model computes its rows, as the ledger records it
 * with each run: the SQL of its full refresh and of every model upstream of
 * it, rendered at one fixed as_of without start and end and as if no
 * relation existed yet (so the night, the range a run was given and the
 * warehouse's state do not count, and macros, vars and config that change
 * the SQL do; nor does the render wait on the warehouse), with the config of the seeds and sources they read.
 * Two runs with one fingerprint compute the same rows from the same raw
 * rows, so the exact `stale` need not rebuild a partition written under the
 * current fingerprint whose raw rows did not change since. Null when a
 * render fails (nothing is vouched for then).
 */
export function definitionHash(manifest: Manifest, graph: Graph, node: ModelNode, db: Warehouse): string | null {
  let byNode = cache.get(manifest);
  if (!byNode) cache.set(manifest, (byNode = new Map()));
  if (byNode.has(node.uniqueId)) return byNode.get(node.uniqueId)!;
  const fixed: Manifest = { ...manifest, vars: withFixedRunVars(manifest.vars) };
  const hash = createHash('sha256');
  let digest: string | null;
  try {
    for (const id of [node.uniqueId, ...[...ancestors(graph, node.uniqueId)].sort()]) {
      const upstream = manifest.nodes.get(id);
      if (!upstream) continue;
      const text = upstream.resourceType === 'model'
        ? renderModel(fixed, upstream, { db, incremental: false, existing: null }).sql
        : stableJson(upstream.config);
      hash.update(`${id}\0${text.length}\0${text}\0`);
    }
    digest = hash.digest('hex');
  } catch {
    digest = null;
  }
  byNode.set(node.uniqueId, digest);
  return digest;
}

function withFixedRunVars(vars: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...vars, as_of: FIXED_AS_OF };
  delete out.start;
  delete out.end;
  return out;
}

/** JSON with object keys sorted, so one value always gives one text. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v)) ?? 'null';
}
