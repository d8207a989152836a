import { relationLabel } from './describe-node.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import type { BatchPlan, NodePlan } from '../plan/node-plan.js';
import { recordNodeRun, type NodeRunRecord } from '../state/ledger.js';
import { isBusyError } from '../state/warehouse-locked.js';
import { markLedgerRecorded } from './ledger-recorded.js';
import type { BatchResults, RunEvent } from '../state/node-result.js';
import { publishPlan } from './publish-plan.js';
import type { HookRenderer, StatementOutcome } from './run-statements.js';
import type { EventTimeBatch } from '../compile/event-time-filter.js';

export interface RunBatchesContext {
  readonly emit: (event: RunEvent) => void;
  /** The ledger row for one publish of this node. */
  readonly record: (plan: NodePlan, outcome: StatementOutcome, status: 'success' | 'error', message?: string) => NodeRunRecord;
  /** --empty: a batch writes no rows, so the ledger does not record it as built (fill_gaps and retry still see it missing). */
  readonly empty?: boolean;
  /** Renders one of the model's hook templates as it runs: is_incremental() as the publish's SQL saw it, and its batch (microbatch). */
  readonly renderHook?: (hook: Parameters<HookRenderer>[0], at: HookMoment) => string;
}

/** What a hook's render knows of the publish it runs in. */
export interface HookMoment {
  readonly incremental: boolean;
  readonly batch?: EventTimeBatch;
}

const dotted = (prefix: string, status: string) => `${prefix} ${'.'.repeat(Math.max(3, 80 - prefix.length - 1))} [${status}]`;

function batchPlan(plan: NodePlan, batch: BatchPlan): NodePlan {
  return { ...plan, mode: batch.mode, sql: batch.sql, statements: batch.statements, batches: undefined };
}

/**
 * Run a microbatch plan: each batch is its own publish (its own
 * transaction and ledger row, window_start/window_end = its window, its id
 * recorded as the partition written), so a failure keeps every other
 * batch. As in dbt, a failed first batch skips the rest (it creates the
 * table or carries the schema change); later failures do not stop the run.
 * Throws after the last batch when any failed, with batchResults attached.
 */
export function runBatches(db: Warehouse, plan: NodePlan, context: RunBatchesContext): { outcome: StatementOutcome; batchResults: BatchResults } {
  const batches = plan.batches ?? [];
  const successful: [string, string][] = [];
  const failed: [string, string][] = [];
  const outcome: StatementOutcome = { rowsDeleted: 0, rowsInserted: 0, partitions: [] };
  let firstError: { error: Error; label: string } | undefined;
  let skipRest = false;
  const of = `of ${relationLabel(plan.relation)}`;
  batches.forEach((batch, i) => {
    const head = `Batch ${i + 1} of ${batches.length}`;
    if (skipRest) {
      failed.push([batch.start, batch.end]);
      context.emit({ type: 'log', message: dotted(`${head} SKIP batch ${batch.label} ${of}`, 'SKIP') });
      return;
    }
    context.emit({ type: 'log', message: dotted(`${head} START batch ${batch.label} ${of}`, 'RUN') });
    const t0 = performance.now();
    const one = batchPlan(plan, batch);
    const withWindow = (r: NodeRunRecord): NodeRunRecord => ({ ...r, window_start: batch.start, window_end: batch.end });
    try {
      const moment = { incremental: batch.mode === 'incremental', batch: { label: batch.label, start: batch.start, end: batch.end } };
      const o = publishPlan(db, one, (done) => {
        recordNodeRun(db, withWindow(context.record(one, done, 'success')), context.empty ? [] : [batch.label]);
      }, context.renderHook ? (hook) => context.renderHook!(hook, moment) : undefined);
      outcome.rowsDeleted += o.rowsDeleted;
      outcome.rowsInserted += o.rowsInserted;
      outcome.partitions.push(batch.label);
      if (o.warnings?.length) outcome.warnings = [...(outcome.warnings ?? []), ...o.warnings.map((w) => `batch ${batch.label}: ${w}`)];
      if (o.auditWarnings?.length) outcome.auditWarnings = [...(outcome.auditWarnings ?? []), ...o.auditWarnings.map((w) => `batch ${batch.label}: ${w}`)];
      successful.push([batch.start, batch.end]);
      const rows = batch.mode === 'full' ? `SELECT ${o.rowsInserted}` : `DELETE ${o.rowsDeleted}, INSERT ${o.rowsInserted}`;
      context.emit({ type: 'log', message: dotted(`${head} OK created batch ${batch.label} ${of}`, `${rows} in ${((performance.now() - t0) / 1000).toFixed(2)}s`) });
    } catch (err) {
      if (isBusyError(err)) throw err;
      const error = err instanceof Error ? err : new Error(String(err));
      const message = error instanceof ProjectError ? error.format() : error.message;
      try {
        recordNodeRun(db, withWindow(context.record(one, { rowsDeleted: 0, rowsInserted: 0, partitions: [] }, 'error', message)));
      } catch {
        // The ledger write must not hide the real error.
      }
      failed.push([batch.start, batch.end]);
      firstError ??= { error, label: batch.label };
      if (i === 0 && batches.length > 1) skipRest = true;
      context.emit({ type: 'log', message: dotted(`${head} ERROR creating batch ${batch.label} ${of}`, 'ERROR') });
    }
  });
  const batchResults: BatchResults = { successful, failed };
  if (firstError) {
    const { error, label } = firstError;
    const detail = error instanceof ProjectError ? error.format() : error.message;
    const summary = successful.length > 0
      ? `PARTIAL SUCCESS (${successful.length}/${batches.length} batches): batch ${label} failed: ${detail}`
      : `batch ${label} failed: ${detail}${skipRest ? ` (the ${batches.length - 1} later batch${batches.length === 2 ? ' was' : 'es were'} skipped)` : ''}`;
    const wrapped = error instanceof ProjectError ? new ProjectError(`${summary}\n  rerun only the failed batches with: mini-dbt retry`, { exitCode: error.exitCode }) : new Error(`${summary}\n  rerun only the failed batches with: mini-dbt retry`);
    throw Object.assign(markLedgerRecorded(wrapped), { batchResults });
  }
  return { outcome, batchResults };
}
