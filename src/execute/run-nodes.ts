import type { Manifest, ModelNode } from '../compile/manifest.js';
import { dialect, engine } from '../engine/current-engine.js';
import { readGrants } from '../config/grants-config.js';
import { warnUser } from '../errors/user-warning.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import type { Graph } from '../graph/graph-node.js';
import type { NodePlan } from '../plan/node-plan.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';
import type { RunContext } from '../invocation/run-context.js';
import type { SessionReload } from './node-pool-messages.js';
import { describeRunnable, notStarted, runNode, type NodeRunState, type RunnableNode } from './run-node.js';
import { runnableNodes, skipBeforeStart } from './runnable-nodes.js';
import { runNodesInParallel } from './run-nodes-parallel.js';

export interface RunNodesOptions {
  readonly db: Warehouse;
  readonly manifest: Manifest;
  readonly graph: Graph;
  /** Node ids in execution order (models and seeds; sources are ignored). */
  readonly order: readonly string[];
  /** The invocation's facts (flags, backfill range, event-time range, retried batches). */
  readonly context: RunContext;
  readonly reason?: string;
  readonly onEvent?: (event: RunEvent) => void;
  /** Called with each model's rendered SQL and plan (target/compiled, target/run). */
  readonly onPlanned?: (node: ModelNode, plan: NodePlan) => void;
  /** Skip every node with this message (a failed on-run-start hook, as dbt's skip_nodes_if_on_run_start_fails). */
  readonly skipAllBecause?: string;
  /**
   * dbt's threads (--threads, else the profile's): how many nodes may run at
   * once. More than 1 runs independent nodes side by side on an engine whose
   * writers can (engine.ts `relationLocks`), each thread with its own
   * connection and the session loaded again from `session`.
   */
  readonly threads?: number;
  /** --threads as given on the command line (a single-writer engine says once that it runs one node at a time). */
  readonly threadsFlag?: number;
  /** How the session was loaded (the threads load it again, through the parse cache). */
  readonly session?: SessionReload;
}

/**
 * Build nodes in order, one transaction per publish. A failed node fails
 * alone: its descendants are skipped, the others still run. With threads
 * on an engine whose writers work side by side, independent nodes run at
 * once (run-nodes-parallel.ts); else one after another on `db`.
 */
export async function runNodes(options: RunNodesOptions): Promise<NodeResult[]> {
  const nodes = runnableNodes(options.manifest, options.order);
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const emit = options.onEvent ?? (() => undefined);
  warnGrantsIgnored(nodes);
  if (engine.relationLocks) engine.relationLocks.tagSession(options.db, options.context.invocationId);
  if (threads > 1 && engine.relationLocks && options.session && nodes.length > 1 && options.skipAllBecause === undefined) {
    return runNodesInParallel(nodes, { ...options, threads, sessionOptions: options.session, sequential: () => runNodes({ ...options, threads: 1 }) });
  }
  if ((options.threadsFlag ?? 1) > 1 && !engine.relationLocks) emit({ type: 'log', message: `--threads ${options.threadsFlag}: the ${engine.name} engine has one writer, so nodes run one at a time` });
  const state: NodeRunState = { failed: new Set(), blocked: new Set(), blockedModels: new Map() };
  const results: NodeResult[] = [];
  const total = nodes.length;
  for (const [i, node] of nodes.entries()) {
    const index = i + 1;
    const skip = skipBeforeStart(options, results);
    if (skip !== undefined) {
      const result = notStarted(node, skip);
      results.push(result);
      emit({ type: 'result', index, total, description: describeRunnable(node), result });
      continue;
    }
    results.push(await runNode(node, index, total, state, { db: options.db, manifest: options.manifest, graph: options.graph, context: options.context, emit, onPlanned: options.onPlanned }));
  }
  return results;
}

/**
 * SQLite has no privileges: a `grants` config does nothing there (dbt-sqlite's materializations never apply
 * it), so the run says so once, in one line, instead of letting the user believe the grants were given.
 */
function warnGrantsIgnored(nodes: readonly RunnableNode[]): void {
  if (dialect.name !== 'sqlite') return;
  const granting = nodes.filter((n) => n.resourceType !== 'test' && n.resourceType !== 'unit_test' && readGrants(n.config) !== undefined);
  if (granting.length === 0) return;
  const named = granting.slice(0, 3).map((n) => n.name).join(', ');
  warnUser(`grants have no effect on SQLite, which has no privileges (dbt-sqlite ignores them too): the grants of ${named}${granting.length > 3 ? ` and ${granting.length - 3} more` : ''} are not applied`);
}
