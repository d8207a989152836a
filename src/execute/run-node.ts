import { nowIso } from '../clock.js';
import { graphContext } from '../state/graph-context.js';
import type { Manifest, ModelNode, SeedNode, SnapshotNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import type { Graph } from '../graph/graph-node.js';
import { loadSeed } from '../materialize/seed.js';
import type { NodePlan } from '../plan/node-plan.js';
import { recordNodeRun, type NodeRunRecord } from '../state/ledger.js';
import { definitionHash } from '../plan/definition-hash.js';
import { adapterMessage, describeNode, relationName } from './describe-node.js';
import { seedHookRunner } from './seed-hooks.js';
import { effectiveAsOf, rememberedSourceKind } from '../state/effective-as-of.js';
import { windowAfterLanded } from './window-after-landed.js';
import { lateRowsNotApplied, previousAsOf } from './late-rows-not-applied.js';
import type { BatchResults, NodeResult, RunEvent } from '../state/node-result.js';
import { crashPoint } from '../test-hooks.js';
import { setQueryComment } from '../engine/query-comment-connection.js';
import { renderQueryComment } from '../compile/render-query-comment.js';
import type { StatementOutcome } from './run-statements.js';
import { planNode } from '../plan/plan-node.js';
import { renderModelHook } from '../compile/render-model-hook.js';
import type { RunContext } from '../invocation/run-context.js';
import { warehouseFacts } from '../state/warehouse-facts.js';
import { isLedgerRecorded } from './ledger-recorded.js';
import { publishModel } from './publish-model.js';
import { withEarlierBatches } from './with-earlier-batches.js';
import type { TestNode } from '../compile/test-node.js';
import { runTestStep } from './run-test-step.js';
import { describeSnapshot, runSnapshotStep } from './run-snapshot.js';
import type { UnitTestNode } from '../compile/unit-test-node.js';
import { describeUnitTest, runUnitTestStep } from './run-unit-test-step.js';
import { busyTimeoutOf, nodeFailure, withRelationLock } from './relation-lock.js';
import { applyGrants } from '../materialize/grant-statements.js';
import { readGrants } from '../config/grants-config.js';

/** A node a run builds or checks (ephemeral models are rendered into others, never run). */
export type RunnableNode = ModelNode | SeedNode | TestNode | SnapshotNode | UnitTestNode;

/** What earlier nodes left for later ones: which failed (their descendants are skipped) and which tests blocked what. */
export interface NodeRunState {
  readonly failed: Set<string>;
  /** Nodes whose data tests failed (build): their descendants are skipped. */
  readonly blocked: Set<string>;
  /** Models whose unit test failed (build), with the test's name: the model is skipped. */
  readonly blockedModels: Map<string, string>;
}

export interface RunNodeOptions {
  readonly db: Warehouse;
  readonly manifest: Manifest;
  readonly graph: Graph;
  readonly context: RunContext;
  readonly emit: (event: RunEvent) => void;
  /** Called with each model's rendered SQL and plan (target/compiled, target/run). */
  readonly onPlanned?: (node: ModelNode, plan: NodePlan) => void;
}

/** The line a node's progress events describe it by. */
export function describeRunnable(node: RunnableNode): string {
  return node.resourceType === 'test' ? `test ${node.name}` : node.resourceType === 'unit_test' ? `unit_test ${describeUnitTest(node)}` : node.resourceType === 'snapshot' ? describeSnapshot(node) : describeNode(node);
}

/**
 * Build or check one node: skipped when an upstream failed, else START,
 * its publish (one transaction, holding the lock on its relation where the
 * engine has relation locks), then its result line. Failures are the node's
 * own result; only the engine's busy error on a single-writer warehouse
 * (another process holds it) is thrown, to stop the whole command.
 */
export async function runNode(node: RunnableNode, index: number, total: number, state: NodeRunState, options: RunNodeOptions): Promise<NodeResult> {
  // dbt's query-comment: the node's own on its statements (dbt sets it as the node's connection opens), the run's again after.
  let comment: ReturnType<typeof renderQueryComment>;
  try {
    comment = renderQueryComment(options.manifest, node, node.uniqueId, options.context);
  } catch (err) {
    // A node that is skipped (an upstream failed) opens no connection in dbt: it is skipped, whatever its comment.
    const parents: readonly string[] = 'dependsOn' in node ? node.dependsOn : [];
    if (parents.some((p) => state.failed.has(p) || state.blocked.has(p))) return runNodeCommented(node, index, total, state, options);
    // A comment that renders for the run but not for this node (it reads something of the node): the node's failure.
    state.failed.add(node.uniqueId);
    return commentFailure(node, index, total, err, options.emit);
  }
  const previous = setQueryComment(options.db, comment);
  try {
    return await runNodeCommented(node, index, total, state, options);
  } finally {
    setQueryComment(options.db, previous);
  }
}

async function runNodeCommented(node: RunnableNode, index: number, total: number, state: NodeRunState, options: RunNodeOptions): Promise<NodeResult> {
  const { db, manifest, graph, emit } = options;
  const { failed, blocked, blockedModels } = state;
  if (node.resourceType === 'snapshot') {
    const upstream = node.dependsOn.find((p) => failed.has(p) || blocked.has(p));
    if (upstream) return runSnapshotStep(node, { db, manifest, run: options.context, index, total, emit, failed, blocked });
    try {
      return withRelationLock(db, relationName(node), () => runSnapshotStep(node, { db, manifest, run: options.context, index, total, emit, failed, blocked }), busyTimeoutOf(manifest.project));
    } catch (err) {
      failed.add(node.uniqueId);
      return lockFailure(node, index, total, nodeFailure(db, err, busyTimeoutOf(manifest.project), options.context.invocationId), emit);
    }
  }
  if (node.resourceType === 'unit_test') {
    return runUnitTestStep(node, { db, manifest, run: options.context, index, total, emit, failed, blockedModels });
  }
  if (node.resourceType === 'test') {
    const result = runTestStep(node, { db, manifest, run: options.context, index, total, emit, failed, blocked });
    if (result.status === 'skipped' || result.status === 'error') failed.add(node.uniqueId);
    return result;
  }
  const description = describeNode(node);
  const startedAt = nowIso();
  const t0 = performance.now();
  const upstreamFailure = (node.resourceType === 'model' ? node.dependsOn : []).find((p) => failed.has(p) || blocked.has(p));
  const unitTestFailure = blockedModels.get(node.uniqueId);
  if (upstreamFailure || unitTestFailure !== undefined) {
    failed.add(node.uniqueId);
    const result = skipped(node, startedAt, upstreamFailure ?? `unit test ${unitTestFailure}`);
    emit({ type: 'result', index, total, description, result });
    return result;
  }
  emit({ type: 'start', index, total, description, uniqueId: node.uniqueId });
  let plan: NodePlan | undefined;
  let outcome: StatementOutcome = { rowsDeleted: 0, rowsInserted: 0, partitions: [] };
  let asOf: string | null = null;
  let batchResults: BatchResults | undefined;
  let lateRows: NodeResult['lateRowsNotApplied'];
  try {
    await withRelationLock(db, relationName(node), async () => {
      if (node.resourceType === 'seed') {
        // dbt runs a seed's hooks around its load: outside the transaction first and last, the others inside it.
        const runHooks = seedHookRunner(manifest, node, { run: options.context, log: (message) => emit({ type: 'log', message }) });
        runHooks(db, 'pre', false);
        const loaded = await loadSeed(db, {
          csvPath: node.file.absPath,
          displayPath: node.file.path,
          table: node.alias,
          schema: node.schema,
          // dbt 1.12's seed --empty (and build --empty): the table with its columns, no rows.
          ...(options.context.empty ? { empty: true } : {}),
          columnTypes: node.settings.columnTypes as Record<string, string> | undefined,
          quoteColumns: node.settings.quoteColumns,
          // Checked by the loader (one character; a known encoding), whatever type the yml gave them.
          delimiter: node.settings.delimiter as string | undefined,
          encoding: node.settings.encoding as string | undefined,
          indexes: node.settings.indexes.map((i) => ({ columns: [...i.columns], unique: i.unique })),
          onProgress: (p) => emit({ type: 'progress', uniqueId: node.uniqueId, name: node.name, stage: p.stage, done: p.bytes, total: p.totalBytes }),
          afterBegin: (tx) => runHooks(tx, 'pre', true),
          beforeCommit: (tx) => {
            runHooks(tx, 'post', true);
            // dbt's apply_grants after the seed's load: the table is always a new one here (staged, swapped in), so only grants.
            for (const sql of applyGrants(tx, { schema: node.schema, alias: node.alias, grants: readGrants(node.config) })) emit({ type: 'log', message: `${node.name}: ${sql}`, level: 'debug' });
            crashPoint();
            recordNodeRun(tx, ledgerRecord(options.context, node, 'seed', null, { rowsDeleted: 0, rowsInserted: 0, partitions: [] }, 'success', null, startedAt, t0));
            crashPoint();
          },
        });
        outcome = { rowsDeleted: 0, rowsInserted: loaded.rows, partitions: [] };
        runHooks(db, 'post', false);
      } else {
        const sinks = { log: (message: string) => emit({ type: 'log', message }), debug: (message: string) => emit({ type: 'log', message, level: 'debug' }), print: (message: string) => emit({ type: 'log', message, level: 'print' }), graph: () => graphContext(manifest, options.graph) };
        plan = planNode({ facts: warehouseFacts(db), manifest, node, context: options.context, ...sinks });
        options.onPlanned?.(node, plan);
        const idle = plan.mode === 'incremental' ? windowAfterLanded(db, manifest, graph, node) : undefined;
        if (idle) emit({ type: 'log', message: `${node.name}: ${idle}` });
        const kindOf = rememberedSourceKind(db);
        asOf = plan.partitionColumn ? effectiveAsOf(db, manifest, graph, node.uniqueId, kindOf) : null;
        const at = asOf;
        // Read before this run's ledger row exists: the as-of its late rows are counted from.
        const after = plan.mode === 'incremental' && at !== null ? previousAsOf(db, node.name, options.context.invocationId) : null;
        const published = publishModel(db, plan, {
          emit,
          // Each hook template rendered as it runs, in the model's context (dbt's run_hooks).
          renderHook: (hook, moment) => renderModelHook(manifest, node, hook, { db, run: options.context, ...sinks, incremental: moment.incremental, ...(moment.batch ? { batch: moment.batch } : {}) }),
          ...(options.context.empty ? { empty: true } : {}),
          record: (p, o, status, message) => ({
            ...ledgerRecord(options.context, node, p.mode, p, o, status, at, startedAt, t0, message ?? null),
            // What the rows were computed under, for `stale --candidates` (partitioned incremental models only, the ones it
            // can answer for; an --empty run computed no rows from its inputs).
            definition_hash: status === 'success' && !options.context.empty && node.resourceType === 'model' && node.settings.materialized === 'incremental' && node.settings.partitionColumn
              ? definitionHash(manifest, graph, node, db)
              : null,
          }),
        });
        outcome = published.outcome;
        for (const warning of [...(outcome.warnings ?? []), ...(outcome.auditWarnings ?? [])]) emit({ type: 'log', message: `${node.name}: ${warning}` });
        batchResults = published.batchResults;
        const written = [...outcome.partitions].sort();
        if (after !== null && at !== null && written.length > 0) lateRows = lateRowsNotApplied(db, manifest, graph, node, after, at, [written[0]!, written[written.length - 1]!], kindOf);
      }
    }, busyTimeoutOf(manifest.project));
    const kind = node.resourceType === 'seed' ? 'seed' : (plan?.strategy ?? '');
    const response = adapterMessage(kind, plan?.mode ?? 'seed', outcome.rowsDeleted, outcome.rowsInserted);
    const result: NodeResult = {
      uniqueId: node.uniqueId,
      name: node.name,
      resourceType: node.resourceType,
      status: 'success',
      message: response.message,
      executionTime: (performance.now() - t0) / 1000,
      startedAt,
      completedAt: nowIso(),
      adapterResponse: { _message: response.message, code: response.code, rows_affected: response.rows },
      compiledCode: plan?.sql,
      relationName: relationName(node),
      plan,
      rowsDeleted: outcome.rowsDeleted,
      rowsInserted: outcome.rowsInserted,
      partitions: outcome.partitions,
      asOf,
      exitCode: 0,
      ...(batchResults ? { batchResults: withEarlierBatches(batchResults, options.context, node.uniqueId) } : {}),
      ...(lateRows ? { lateRowsNotApplied: lateRows } : {}),
    };
    emit({ type: 'result', index, total, description, result });
    return result;
  } catch (thrown) {
    // Another process holds a single-writer warehouse: stop the whole command, clearly (nodeFailure throws it on).
    const err = nodeFailure(db, thrown, busyTimeoutOf(manifest.project), options.context.invocationId);
    failed.add(node.uniqueId);
    const error = err instanceof Error ? err : new Error(String(err));
    const file = node.file.path;
    const message = error instanceof ProjectError
      ? error.format()
      : `Database Error in ${node.resourceType} ${node.name} (${file})\n  ${error.message}${crossSchemaViewHint(error.message)}${node.resourceType === 'model' ? `\n  compiled code at ${manifest.project.paths.target}/run/${manifest.project.name}/${file}` : ''}`;
    try {
      if (!isLedgerRecorded(error)) recordNodeRun(db, ledgerRecord(options.context, node, plan?.mode ?? (node.resourceType === 'seed' ? 'seed' : 'full'), plan ?? null, outcome, 'error', asOf, startedAt, t0, message));
    } catch {
      // The ledger write must not hide the real error (e.g. the database is locked).
    }
    const failedBatches = (error as { batchResults?: BatchResults }).batchResults;
    const result: NodeResult = {
      uniqueId: node.uniqueId,
      name: node.name,
      resourceType: node.resourceType,
      status: failedBatches && failedBatches.successful.length > 0 ? 'partial success' : 'error',
      message,
      executionTime: (performance.now() - t0) / 1000,
      startedAt,
      completedAt: nowIso(),
      adapterResponse: {},
      compiledCode: plan?.sql,
      relationName: relationName(node),
      plan,
      rowsDeleted: 0,
      rowsInserted: 0,
      partitions: [],
      asOf,
      // dbt exits 1 whenever a node fails; 2 is for what stops the invocation before nodes run.
      exitCode: 1,
      error,
      ...(failedBatches ? { batchResults: withEarlierBatches(failedBatches, options.context, node.uniqueId) } : {}),
    };
    emit({ type: 'result', index, total, description, result });
    return result;
  }
}

/** A result for a node that never started (--fail-fast, a failed on-run-start hook). */
export function notStarted(node: RunnableNode, message: string): NodeResult {
  const at = nowIso();
  return {
    uniqueId: node.uniqueId, name: node.name, resourceType: node.resourceType, status: 'skipped',
    message, executionTime: 0, startedAt: at, completedAt: at,
    adapterResponse: {}, relationName: node.resourceType === 'test' || node.resourceType === 'unit_test' ? '' : relationName(node), rowsDeleted: 0, rowsInserted: 0, partitions: [], asOf: null, exitCode: 1,
  };
}

/** A snapshot whose relation lock could not be had in time (or another failure around its step). */
/** A node whose query comment failed to render: an error before any of its statements, as dbt's connection for it fails to open. */
function commentFailure(node: RunnableNode, index: number, total: number, err: unknown, emit: (event: RunEvent) => void): NodeResult {
  const error = err instanceof Error ? err : new Error(String(err));
  const at = nowIso();
  const result: NodeResult = {
    uniqueId: node.uniqueId, name: node.name, resourceType: node.resourceType, status: 'error',
    message: error instanceof ProjectError ? error.format() : error.message, executionTime: 0, startedAt: at, completedAt: at,
    adapterResponse: {}, relationName: 'alias' in node && 'schema' in node ? relationName(node) : '', rowsDeleted: 0, rowsInserted: 0, partitions: [], asOf: null, exitCode: 1, error,
  };
  emit({ type: 'result', index, total, description: describeRunnable(node), result });
  return result;
}

function lockFailure(node: SnapshotNode, index: number, total: number, err: unknown, emit: (event: RunEvent) => void): NodeResult {
  const error = err instanceof Error ? err : new Error(String(err));
  const at = nowIso();
  const result: NodeResult = {
    uniqueId: node.uniqueId, name: node.name, resourceType: 'snapshot', status: 'error',
    message: error instanceof ProjectError ? error.format() : error.message, executionTime: 0, startedAt: at, completedAt: at,
    adapterResponse: {}, relationName: relationName(node), rowsDeleted: 0, rowsInserted: 0, partitions: [], asOf: null, exitCode: 1, error,
  };
  emit({ type: 'result', index, total, description: describeSnapshot(node), result });
  return result;
}

function skipped(node: ModelNode | SeedNode, at: string, because: string): NodeResult {
  return {
    uniqueId: node.uniqueId,
    name: node.name,
    resourceType: node.resourceType,
    status: 'skipped',
    message: `skipped because ${because} failed`,
    executionTime: 0,
    startedAt: at,
    completedAt: at,
    adapterResponse: {},
    relationName: relationName(node),
    rowsDeleted: 0,
    rowsInserted: 0,
    partitions: [],
    asOf: null,
    exitCode: 1,
  };
}

function ledgerRecord(
  context: RunContext, node: ModelNode | SeedNode, mode: string, plan: NodePlan | null, outcome: StatementOutcome,
  status: 'success' | 'error', asOf: string | null, startedAt: string, t0: number, message: string | null = null,
): NodeRunRecord {
  const partitions = outcome.partitions;
  return {
    invocation_id: context.invocationId,
    unique_id: node.uniqueId,
    model: node.name,
    resource_type: node.resourceType,
    materialization: node.resourceType === 'seed' ? 'seed' : node.settings.materialized,
    strategy: plan?.strategy ?? null,
    mode,
    reason: plan ? `${plan.reason}${context.empty ? ' (--empty: refs and sources read no rows)' : ''}` : (node.resourceType === 'seed' ? 'seeds are reloaded in full' : null),
    as_of: asOf,
    window_start: partitions[0] ?? null,
    window_end: partitions[partitions.length - 1] ?? null,
    partition_column: plan?.partitionColumn ?? null,
    rows_deleted: outcome.rowsDeleted,
    rows_inserted: outcome.rowsInserted,
    status,
    message,
    started_at: startedAt,
    completed_at: nowIso(),
    execution_time: (performance.now() - t0) / 1000,
  };
}

/** SQLite keeps a view inside its own file: say what dbt-sqlite says to do about it. */
function crossSchemaViewHint(message: string): string {
  return /cannot reference objects in database/.test(message)
    ? '\n  (a SQLite view cannot read another schema\'s database file: materialize this model as a table, as dbt-sqlite advises)'
    : '';
}
