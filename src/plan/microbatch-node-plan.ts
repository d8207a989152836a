import { renderModel } from '../compile/render-model.js';
import type { RelationKind } from '../engine/relation-kind.js';
import type { BuildMode } from './build-mode.js';
import type { NodePlan } from './node-plan.js';
import { planMicrobatch } from './plan-microbatch.js';
import { contractPlan, contractSchema } from './contract-preflight.js';
import { warnUser } from '../errors/user-warning.js';
import { schemaOf, withRuntimeHooks, type PlanNodeInput } from './plan-inputs.js';

/**
 * A microbatch model's plan, its batches chosen by the build mode: render
 * the model once per batch with its refs filtered to the batch, and plan
 * one publish per batch.
 */
export function microbatchNodePlan(input: PlanNodeInput, mode: Extract<BuildMode, { kind: 'microbatch' }>, existing: RelationKind | null): NodePlan {
  const { facts, manifest, node, context } = input;
  const { incremental, windows } = mode;
  const rendered = windows.batches.map((batch, i) =>
    renderModel(manifest, node, {
      db: facts?.db,
      existing,
      incremental: incremental || i > 0,
      run: context,
      log: input.log,
      batch: { label: batch.label, start: batch.startText, end: batch.endText },
    }));
  const first = rendered[0];
  // dbt checks the contract in each batch's materialization; the batches share one SELECT but for its window, so the first one's is compared.
  const contract = first ? contractPlan(manifest, node, first.sql, facts) : undefined;
  for (const warning of contract?.warnings ?? []) warnUser(`${node.file.path}: ${warning.message}`, warning.event);
  // A first build: later batches insert the first batch's columns (unknown when an upstream is not built yet: select *).
  const sourceColumns = facts && first && !incremental ? facts.selectColumns(first.sql)?.map((c) => c.name) : undefined;
  const plan = planMicrobatch({
    // Pre-hooks run with the first batch and post-hooks with the last, each rendered in its batch (model.batch.id) when it runs.
    node: withRuntimeHooks(node),
    incremental,
    reason: mode.reason,
    batches: windows.batches.map((batch, i) => ({ batch, sql: rendered[i]!.sql })),
    source: windows.source,
    gaps: windows.gaps,
    missed: windows.missed,
    targetColumns: facts && existing === 'table' ? facts.columns(node.alias, node.schema).map((c) => c.name) : [],
    schema: facts && incremental && first ? contractSchema(schemaOf(facts, node, first.sql), contract?.table?.spec) : undefined,
    sourceColumns,
    ...(contract?.table ? { contract: contract.table } : {}),
  });
  if (!contract?.failure) return plan;
  const { schemaChange: _unused, ...refused } = plan;
  return { ...refused, statements: [{ kind: 'fail', message: contract.failure }], batches: plan.batches?.map((b) => ({ ...b, statements: [{ kind: 'fail', message: contract.failure! }] })) };
}
