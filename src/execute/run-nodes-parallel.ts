import type { ModelNode } from '../compile/manifest.js';
import type { NodeResult } from '../state/node-result.js';
import { nodePrerequisites, widestLevel } from './node-prerequisites.js';
import { NodePool, nodePoolScript } from './node-pool.js';
import type { SessionReload, SharedState } from './node-pool-messages.js';
import { describeRunnable, notStarted, type RunnableNode } from './run-node.js';
import type { RunNodesOptions } from './run-nodes.js';
import { skipBeforeStart } from './runnable-nodes.js';
import { busyTimeoutOf } from './relation-lock.js';

/**
 * Run nodes on `threads` pool threads at once (node-pool.ts), scheduled by
 * the dependency graph: a node starts once the nodes it depends on (and
 * their tests) finished (node-prerequisites.ts), the lowest position first,
 * on whichever thread is idle (threads take nodes as soon as each is
 * ready). Each thread decides a skip as a sequential run does, from the
 * failed and blocked nodes so far, which it is sent with the node. Progress
 * events come as the threads send them (START when a node starts, its
 * result line when it ends: completion order, as dbt prints them); so do
 * the results. When no thread could start (the script is not built, the
 * session loads differently), the nodes run one at a time here.
 */
export async function runNodesInParallel(nodes: readonly RunnableNode[], options: RunNodesOptions & { readonly threads: number; readonly sessionOptions: SessionReload; readonly sequential: () => Promise<NodeResult[]> }): Promise<NodeResult[]> {
  const emit = options.onEvent ?? (() => undefined);
  const sequential = (why: string): Promise<NodeResult[]> => {
    emit({ type: 'log', message: `--threads ${options.threads}: ${why}, so nodes run one at a time` });
    return options.sequential();
  };
  const order = nodes.map((n) => n.uniqueId);
  const prerequisites = nodePrerequisites(options.graph, order);
  // No more threads than nodes that could ever run at once; a chain runs here, with no thread to start.
  const width = Math.min(options.threads, widestLevel(prerequisites));
  if (width <= 1) return options.sequential();
  const script = nodePoolScript();
  if (!script) return sequential("the node pool's thread script is not built (npm run build)");
  const pool = new NodePool(script, width, {
    role: 'mini-dbt-node-pool',
    sessionOptions: options.sessionOptions,
    busyTimeoutMs: busyTimeoutOf(options.manifest.project),
    context: options.context,
    order,
    expect: { databasePath: options.manifest.project.databasePath, schema: options.manifest.project.target.schema },
  }, emit, (nodeId, plan) => {
    const node = options.manifest.nodes.get(nodeId);
    if (node?.resourceType === 'model') options.onPlanned?.(node as ModelNode, plan);
  });
  const state = { failed: new Set<string>(), blocked: new Set<string>(), blockedModels: new Map<string, string>() };
  const shared = (): SharedState => ({ failed: [...state.failed], blocked: [...state.blocked], blockedModels: [...state.blockedModels] });
  const results: NodeResult[] = [];
  const total = nodes.length;
  const started = nodes.map(() => false);
  const done = nodes.map(() => false);
  let noThread: Error | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let failedHard = false;
      let startsFailed = 0;
      const dispatch = (): void => {
        if (failedHard) return;
        for (const [i, node] of nodes.entries()) {
          if (started[i] || !prerequisites[i]!.every((p) => done[p])) continue;
          const skip = skipBeforeStart(options, results);
          if (skip !== undefined) {
            started[i] = done[i] = true;
            const result = notStarted(node, skip);
            results.push(result);
            emit({ type: 'result', index: i + 1, total, description: describeRunnable(node), result });
            continue;
          }
          const thread = pool.idle();
          if (!thread) break;
          started[i] = true;
          thread.run(node.uniqueId, i + 1, total, shared()).then(({ result, state: after }) => {
            for (const id of after.failed) state.failed.add(id);
            for (const id of after.blocked) state.blocked.add(id);
            for (const [model, test] of after.blockedModels) state.blockedModels.set(model, test);
            results.push({ ...result, threadId: thread.name });
            done[i] = true;
            dispatch();
          }, (err: unknown) => {
            failedHard = true;
            reject(err);
          });
        }
        if (done.every(Boolean)) resolve();
      };
      for (const start of pool.starts) {
        start.then(dispatch, (err: unknown) => {
          // A thread that cannot start leaves the others the work; with none at all, this thread runs it.
          if (++startsFailed === pool.starts.length && !started.some(Boolean)) {
            noThread = err instanceof Error ? err : new Error(String(err));
            resolve();
          }
        });
      }
    });
  } finally {
    await pool.close();
  }
  if (noThread) return sequential(`no thread could start (${noThread.message.split('\n')[0]})`);
  return results;
}
