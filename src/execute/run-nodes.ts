import { nowIso } from '../clock.js';
import type { Manifest, ModelNode, SeedNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import type { Warehouse } from '../db/open-warehouse.js';
import { relationColumns } from '../db/relation-kind.js';
import { ProjectError } from '../errors/project-error.js';
import type { Graph } from '../graph/graph-node.js';
import { loadSeed } from '../materialize/seed.js';
import { seedIndexes } from '../materialize/seed-indexes.js';
import type { NodePlan } from '../plan/node-plan.js';
import { planModel } from '../plan/plan-model.js';
import { recordNodeRun, type NodeRunRecord } from '../state/ledger.js';
import { adapterMessage, describeNode } from './describe-node.js';
import { effectiveAsOf } from './effective-as-of.js';
import type { NodeResult, RunEvent } from './node-result.js';
import { crashPoint } from './crash-point.js';
import { runStatements, type StatementOutcome } from './run-statements.js';

export interface RunNodesOptions {
  readonly db: Warehouse;
  readonly manifest: Manifest;
  readonly graph: Graph;
  /** Node ids in execution order (models and seeds; sources are ignored). */
  readonly order: readonly string[];
  readonly fullRefresh: boolean;
  readonly invocationId: string;
  readonly runStartedAt: Date;
  readonly reason?: string;
  readonly onEvent?: (event: RunEvent) => void;
  /** Called with each model's rendered SQL and plan (target/compiled, target/run). */
  readonly onPlanned?: (node: ModelNode, plan: NodePlan) => void;
}

const isBackfill = (vars: Readonly<Record<string, unknown>>) =>
  vars.start !== undefined && vars.start !== null && vars.end !== undefined && vars.end !== null;

/**
 * Build nodes in order, one transaction per publish. A failed node fails
 * alone: its descendants are skipped, the others still run.
 */
export async function runNodes(options: RunNodesOptions): Promise<NodeResult[]> {
  const { db, manifest, graph } = options;
  const nodes = options.order
    .map((id) => manifest.nodes.get(id))
    .filter((n): n is ModelNode | SeedNode => n !== undefined && (n.resourceType === 'seed' || (n.resourceType === 'model' && n.config.materialized !== 'ephemeral')));
  const total = nodes.length;
  const failed = new Set<string>();
  const results: NodeResult[] = [];
  const emit = options.onEvent ?? (() => undefined);

  for (const [i, node] of nodes.entries()) {
    const index = i + 1;
    const description = describeNode(node);
    const startedAt = nowIso();
    const t0 = performance.now();
    const upstreamFailure = (node.resourceType === 'model' ? node.dependsOn : []).find((p) => failed.has(p));
    if (upstreamFailure) {
      failed.add(node.uniqueId);
      const result = skipped(node, startedAt, upstreamFailure);
      results.push(result);
      emit({ type: 'result', index, total, description, result });
      continue;
    }
    emit({ type: 'start', index, total, description, uniqueId: node.uniqueId });
    let plan: NodePlan | undefined;
    let outcome: StatementOutcome = { rowsDeleted: 0, rowsInserted: 0, partitions: [] };
    let asOf: string | null = null;
    try {
      if (node.resourceType === 'seed') {
        const loaded = await loadSeed(db, {
          csvPath: node.file.absPath,
          displayPath: node.file.path,
          table: node.alias,
          columnTypes: node.config.column_types as Record<string, string> | undefined,
          delimiter: typeof node.config.delimiter === 'string' ? node.config.delimiter : undefined,
          indexes: seedIndexes(node.config),
          beforeCommit: (tx) => {
            crashPoint();
            recordNodeRun(tx, ledgerRecord(options, node, 'seed', null, { rowsDeleted: 0, rowsInserted: 0, partitions: [] }, 'success', null, startedAt, t0));
            crashPoint();
          },
        });
        outcome = { rowsDeleted: 0, rowsInserted: loaded.rows, partitions: [] };
      } else {
        const rendered = renderModel(manifest, node, {
          db,
          fullRefresh: options.fullRefresh,
          invocationId: options.invocationId,
          runStartedAt: options.runStartedAt,
          log: (message) => emit({ type: 'log', message }),
        });
        plan = planModel({
          node,
          sql: rendered.sql,
          existing: rendered.existing,
          targetColumns: rendered.existing === 'table' ? relationColumns(db, node.alias).map((c) => c.name) : [],
          fullRefresh: options.fullRefresh,
          backfill: isBackfill(manifest.vars),
        });
        options.onPlanned?.(node, plan);
        asOf = plan.partitionColumn ? effectiveAsOf(db, manifest, graph, node.uniqueId) : null;
        const thePlan = plan;
        db.exec('BEGIN IMMEDIATE');
        try {
          outcome = runStatements(db, thePlan);
          recordNodeRun(db, ledgerRecord(options, node, thePlan.mode, thePlan, outcome, 'success', asOf, startedAt, t0), outcome.partitions);
          crashPoint();
          db.exec('COMMIT');
          crashPoint();
        } catch (err) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw err;
        }
      }
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
        relationName: `"${node.alias}"`,
        plan,
        rowsDeleted: outcome.rowsDeleted,
        rowsInserted: outcome.rowsInserted,
        partitions: outcome.partitions,
        asOf,
        exitCode: 0,
      };
      results.push(result);
      emit({ type: 'result', index, total, description, result });
    } catch (err) {
      failed.add(node.uniqueId);
      const error = err instanceof Error ? err : new Error(String(err));
      const file = node.file.path;
      const message = error instanceof ProjectError
        ? error.format()
        : `Database Error in ${node.resourceType} ${node.name} (${file})\n  ${error.message}${node.resourceType === 'model' ? `\n  compiled code at ${manifest.project.paths.target}/run/${manifest.project.name}/${file}` : ''}`;
      try {
        recordNodeRun(db, ledgerRecord(options, node, plan?.mode ?? (node.resourceType === 'seed' ? 'seed' : 'full'), plan ?? null, outcome, 'error', asOf, startedAt, t0, message));
      } catch {
        // The ledger write must not hide the real error (e.g. the database is locked).
      }
      const result: NodeResult = {
        uniqueId: node.uniqueId,
        name: node.name,
        resourceType: node.resourceType,
        status: 'error',
        message,
        executionTime: (performance.now() - t0) / 1000,
        startedAt,
        completedAt: nowIso(),
        adapterResponse: {},
        compiledCode: plan?.sql,
        relationName: `"${node.alias}"`,
        plan,
        rowsDeleted: 0,
        rowsInserted: 0,
        partitions: [],
        asOf,
        exitCode: error instanceof ProjectError ? error.exitCode : 1,
        error,
      };
      results.push(result);
      emit({ type: 'result', index, total, description, result });
    }
  }
  return results;
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
    relationName: `"${node.alias}"`,
    rowsDeleted: 0,
    rowsInserted: 0,
    partitions: [],
    asOf: null,
    exitCode: 1,
  };
}

function ledgerRecord(
  options: RunNodesOptions, node: ModelNode | SeedNode, mode: string, plan: NodePlan | null, outcome: StatementOutcome,
  status: 'success' | 'error', asOf: string | null, startedAt: string, t0: number, message: string | null = null,
): NodeRunRecord {
  const partitions = outcome.partitions;
  return {
    invocation_id: options.invocationId,
    unique_id: node.uniqueId,
    model: node.name,
    resource_type: node.resourceType,
    materialization: node.resourceType === 'seed' ? 'seed' : String(node.config.materialized),
    strategy: plan?.strategy ?? null,
    mode,
    reason: plan?.reason ?? (node.resourceType === 'seed' ? 'seeds are reloaded in full' : null),
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
