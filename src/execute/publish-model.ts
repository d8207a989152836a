import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import type { NodePlan } from '../plan/node-plan.js';
import { recordNodeRun } from '../state/ledger.js';
import type { BatchResults } from '../state/node-result.js';
import { publishPlan } from './publish-plan.js';
import { runBatches, type RunBatchesContext } from './run-batches.js';
import type { StatementOutcome } from './run-statements.js';

/** A refusal the plan made (on_schema_change: fail), found before anything runs. */
export function planRefusal(plan: NodePlan): string | undefined {
  const statements = [...plan.statements, ...(plan.batches?.[0]?.statements ?? [])];
  const fail = statements.find((s) => s.kind === 'fail');
  return fail?.kind === 'fail' ? fail.message : undefined;
}

/**
 * Publish a model's plan: say what the plan noticed (notes, schema
 * changes), refuse when it refused, then one publish, or one per batch for
 * microbatch models. Each publish writes its ledger row in its transaction.
 */
export function publishModel(db: Warehouse, plan: NodePlan, context: RunBatchesContext): { outcome: StatementOutcome; batchResults?: BatchResults } {
  for (const note of plan.notes ?? []) context.emit({ type: 'log', message: `${plan.name}: ${note}` });
  if (plan.schemaChange) context.emit({ type: 'log', message: `${plan.name}: on_schema_change ${plan.schemaChange.mode}: ${plan.schemaChange.action}` });
  const refusal = planRefusal(plan);
  if (refusal) throw new ProjectError(refusal);
  if (plan.batches) return runBatches(db, plan, context);
  const moment = { incremental: plan.mode === 'incremental' || plan.mode === 'backfill' };
  const outcome = publishPlan(db, plan, (done) => {
    recordNodeRun(db, context.record(plan, done, 'success'), done.partitions);
  }, context.renderHook ? (hook) => context.renderHook!(hook, moment) : undefined);
  return { outcome };
}
