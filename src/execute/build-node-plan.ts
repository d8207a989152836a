import { now } from '../clock.js';
import { renderModel } from '../compile/render-model.js';
import { renderStrategyMacro } from '../compile/render-strategy-macro.js';
import { shouldFullRefresh } from '../compile/should-full-refresh.js';
import { BUILTIN_STRATEGIES, effectiveStrategy } from '../config/model-config.js';
import { relationColumns } from '../db/relation-kind.js';
import { strategyMacroName } from '../materialize/incremental/custom-macro.js';
import type { NodePlan } from '../plan/node-plan.js';
import { planModel } from '../plan/plan-model.js';
import { microbatchNodePlan } from './microbatch-node-plan.js';
import { schemaOf, withRenderedHooks, type BuildNodePlanInput } from './plan-inputs.js';

export type { BuildNodePlanInput } from './plan-inputs.js';

/**
 * Everything a model's build needs, decided before anything runs: render it
 * (per batch for microbatch models), look at the warehouse (does the target
 * exist, its columns, the new output's columns, the ledger's built
 * batches), render a project strategy macro, then plan (pure).
 */
export function buildNodePlan(input: BuildNodePlanInput): NodePlan {
  const { db, manifest, node } = input;
  const renderOptions = { db, fullRefresh: input.fullRefresh, invocationId: input.invocationId, runStartedAt: input.runStartedAt, log: input.log };
  if (node.config.materialized === 'incremental' && effectiveStrategy(node.config) === 'microbatch') {
    return microbatchNodePlan({ ...input, runStartedAt: input.runStartedAt ?? now() });
  }
  const rendered = input.rendered ?? renderModel(manifest, node, renderOptions);
  const planned = withRenderedHooks(node, rendered.hooks);
  const incremental = db !== undefined && node.config.materialized === 'incremental' && rendered.existing === 'table' && !shouldFullRefresh(node.config, input.fullRefresh);
  const strategy = effectiveStrategy(node.config);
  const macro = strategyMacroName(strategy);
  const custom = !(BUILTIN_STRATEGIES as readonly string[]).includes(strategy) && manifest.jinja.macroNames.includes(macro);
  return planModel({
    node: planned,
    sql: rendered.sql,
    existing: rendered.existing,
    targetColumns: db && rendered.existing === 'table' ? relationColumns(db, node.alias).map((c) => c.name) : [],
    fullRefresh: input.fullRefresh,
    backfill: input.backfill,
    rangeGuard: input.rangeGuard,
    schema: incremental ? schemaOf(db, node.alias, rendered.sql) : undefined,
    renderCustom: custom ? (args) => renderStrategyMacro(manifest, node, macro, args, renderOptions, rendered.existing) : undefined,
  });
}
