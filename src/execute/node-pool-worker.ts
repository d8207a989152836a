/**
 * A thread of the node pool (node-pool.ts): loads the session as the
 * command did (through the parse cache), opens its own connection, then
 * runs the nodes the main thread sends it, one at a time, posting each
 * node's progress events, plans and result back. Started from dist/ (this
 * module) or from the CLI bundle (node-pool-worker.cjs, built from it).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadWithParseCache } from '../parse/parse-cache.js';
import { buildGraph } from '../graph/build-graph.js';
import type { Manifest } from '../compile/manifest.js';
import type { Graph } from '../graph/graph-node.js';
import { engine } from '../engine/current-engine.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { setQueryComment, withQueryComments } from '../engine/query-comment-connection.js';
import { renderQueryComment } from '../compile/render-query-comment.js';
import { runnableNodes } from './runnable-nodes.js';
import { runNode, type NodeRunState } from './run-node.js';
import type { NodePoolData, SessionReload, ToPool, ToWorker } from './node-pool-messages.js';
import { asJson } from './node-pool-messages.js';

/** The session as api/session.ts loadSession loads it (through the parse cache, the busy timeout on the project). */
function loadAgain(options: SessionReload): { manifest: Manifest; graph: Graph; project: Manifest['project'] } {
  const loaded = loadWithParseCache(options.projectDir ?? process.cwd(), {
    database: options.database, vars: options.vars, profilesDir: options.profilesDir, profile: options.profile, target: options.target,
    ...(options.partialParse === false ? { partialParse: false } : {}),
    ...(options.targetPath !== undefined ? { targetPath: options.targetPath } : {}),
  });
  const project = options.busyTimeoutMs === undefined ? loaded.project : { ...loaded.project, busyTimeoutMs: options.busyTimeoutMs };
  return { project, manifest: { ...loaded.manifest, project }, graph: buildGraph(loaded.manifest.graphNodes) };
}

function startNodePoolWorker(data: NodePoolData): void {
  const port = parentPort!;
  const post = (message: ToPool): void => {
    try {
      port.postMessage(message);
    } catch {
      // Structured clone refused it (a function in a plan): its JSON goes instead.
      port.postMessage(asJson(message));
    }
  };
  let db: Warehouse | undefined;
  let nodes: Map<string, ReturnType<typeof runnableNodes>[number]>;
  let session: { manifest: Manifest; graph: Graph; project: Manifest['project'] };
  try {
    session = loadAgain(data.sessionOptions);
    const { databasePath, target } = session.project;
    if (databasePath !== data.expect.databasePath || target.schema !== data.expect.schema) {
      throw new Error(`the command's session works on ${data.expect.databasePath} (schema ${data.expect.schema}); loaded again it is ${databasePath} (schema ${target.schema})`);
    }
    db = withQueryComments(openProjectWarehouse(session.project, { busyTimeoutMs: data.busyTimeoutMs }));
    setQueryComment(db, renderQueryComment(session.manifest, undefined, 'master'));
    engine.relationLocks?.tagSession(db, data.context.invocationId);
    nodes = new Map(runnableNodes(session.manifest, data.order).map((n) => [n.uniqueId, n]));
  } catch (err) {
    post({ type: 'open-failed', error: err instanceof Error ? err : new Error(String(err)) });
    return;
  }
  const warehouse = db;
  post({ type: 'ready' });
  port.on('message', (message: ToWorker) => {
    if (message.type === 'close') {
      warehouse.close();
      port.close();
      return;
    }
    const node = nodes.get(message.nodeId);
    if (!node) {
      post({ type: 'crashed', error: new Error(`the node pool's thread does not know ${message.nodeId}: its session differs from the command's`) });
      return;
    }
    const state: NodeRunState = { failed: new Set(message.state.failed), blocked: new Set(message.state.blocked), blockedModels: new Map(message.state.blockedModels) };
    runNode(node, message.index, message.total, state, {
      db: warehouse,
      manifest: session.manifest,
      graph: session.graph,
      context: data.context,
      emit: (event) => post({ type: 'event', event }),
      onPlanned: (model, plan) => post({ type: 'planned', nodeId: model.uniqueId, plan }),
    }).then(
      (result) => post({ type: 'done', taskId: message.taskId, result, state: { failed: [...state.failed], blocked: [...state.blocked], blockedModels: [...state.blockedModels] } }),
      (err) => post({ type: 'crashed', error: err instanceof Error ? err : new Error(String(err)) }),
    );
  });
}

if (!isMainThread && (workerData as { role?: string } | undefined)?.role === 'mini-dbt-node-pool') startNodePoolWorker(workerData as NodePoolData);
