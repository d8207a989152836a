import { keyColumns } from '../materialize/key-sql.js';
import { renderModel } from '../compile/render-model.js';
import { renderStrategyMacro } from '../compile/render-strategy-macro.js';
import { isBuiltinStrategy } from '../materialize/incremental/strategy-registry.js';
import { auditStatements } from '../data-tests/audit-statements.js';
import type { AuditStatement } from '../materialize/planned-statement.js';
import { strategyMacroName } from '../materialize/incremental/custom-macro.js';
import { buildMode, rendersIncremental, type BuildMode } from './build-mode.js';
import type { RelationKind } from '../engine/relation-kind.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import type { ProjectError } from '../errors/project-error.js';
import type { Manifest, ModelNode } from '../compile/manifest.js';
import { microbatchNodePlan } from './microbatch-node-plan.js';
import type { NodePlan } from './node-plan.js';
import { schemaOf, withRuntimeHooks, type PlanNodeInput } from './plan-inputs.js';
import { planModel } from './plan-model.js';
import { contractPlan, contractSchema } from './contract-preflight.js';
import { warnUser } from '../errors/user-warning.js';
import { renderBackfillRanges } from './render-backfill-ranges.js';
import { persistDocsStatements } from '../materialize/persist-docs.js';
import { currentGrants, grantStatements } from '../materialize/grant-statements.js';
import { readGrants } from '../config/grants-config.js';
import type { WarehouseFacts } from './warehouse-facts.js';
import { customStrategyNames, strategyConfigProblem, unknownMaterializationProblem, unknownStrategyProblem, writtenMaterialization } from '../parse/validate-model-config.js';

export type { PlanNodeInput } from './plan-inputs.js';

/**
 * Everything a model's build does, decided before anything runs: read the
 * warehouse (does the target exist, as what), decide the build mode once,
 * render the model in that mode (per batch for microbatch models), read the
 * columns on_schema_change compares, render a project strategy macro, plan
 * the statements (pure), and append the tests that audit the publish.
 * `run` executes this plan; `compile`, `--dry-run` style output and the
 * backfill preview read it.
 */
export function planNode(input: PlanNodeInput, options: { readonly refusalAsPlan?: boolean } = {}): NodePlan {
  const { facts, manifest, node, context } = input;
  const existing = facts && node.settings.materialized !== 'ephemeral' ? facts.relationKind(node.alias, node.schema) : null;
  const mode = buildMode({ node, existing, context, builtBatches: facts ? () => facts.builtBatches(node.name) : undefined });
  const refusal = runRefusal(manifest, node, mode);
  if (refusal) {
    if (options.refusalAsPlan && mode.kind !== 'microbatch') return refusedPlan(node, mode, existing, refusal, input);
    throw refusal;
  }
  const built = mode.kind === 'microbatch' ? microbatchNodePlan(input, mode, existing) : selectPlan(input, mode, existing);
  const plan = built.batches ? withBatchGrants(built, node, facts, existing) : built;
  return withAudits(plan, auditStatements(manifest, node, plan.mode, { db: facts?.db, run: context }));
}

/**
 * What fails this model when it runs, in this mode, before anything is written; not the load.
 * dbt looks the materialization up when the model runs and resolves the strategy macro in it before
 * it branches, so an unknown one fails a first build too; a strategy's own config rules (merge_update_columns
 * with merge_exclude_columns, insert_overwrite without partition_by) are raised by the macro that writes
 * the incremental SQL, so only an incremental run fails on them (microbatch's are checked at load).
 */
function runRefusal(manifest: Manifest, node: ModelNode, mode: BuildMode): ProjectError | undefined {
  const unknownMaterialization = unknownMaterializationProblem(node);
  if (unknownMaterialization) return unknownMaterialization;
  const strategy = node.settings.strategy;
  if (strategy === undefined) return undefined;
  if (!isBuiltinStrategy(strategy)) {
    const unknown = unknownStrategyProblem(node, customStrategyNames(manifest.jinja.macroNames));
    if (unknown) return unknown;
  }
  return (mode.kind === 'incremental' || mode.kind === 'backfill') ? strategyConfigProblem(node) : undefined;
}

/**
 * compile's view of a model a run would fail (dbt's compile never runs the materialization, so it
 * compiles): the SELECT rendered in the decided mode, and one statement saying why a run stops there.
 */
function refusedPlan(node: ModelNode, mode: Exclude<BuildMode, { kind: 'microbatch' }>, existing: RelationKind | null, refusal: ProjectError, input: PlanNodeInput): NodePlan {
  const incremental = rendersIncremental(mode);
  const rendered = (incremental ? input.renderings?.incremental : input.renderings?.full)
    ?? renderModel(input.manifest, node, { db: input.facts?.db, existing, incremental, run: input.context, log: input.log, debug: input.debug, print: input.print, graph: input.graph });
  return {
    uniqueId: node.uniqueId,
    name: node.name,
    relation: qualifiedName(node.schema, node.alias),
    materialization: writtenMaterialization(node),
    ...(node.settings.strategy !== undefined ? { strategy: node.settings.strategy } : {}),
    mode: mode.kind,
    reason: unknownMaterializationProblem(node) ? 'no materialization by that name' : mode.reason,
    sql: rendered.sql,
    statements: [{ kind: 'fail', message: `a run fails this model: ${refusal.format()}` }],
  };
}

/** A model built by one SELECT (every materialization but microbatch): render it in its mode and plan its statements. */
function selectPlan(input: PlanNodeInput, mode: Exclude<BuildMode, { kind: 'microbatch' }>, existing: RelationKind | null): NodePlan {
  const { facts, manifest, node, context } = input;
  const incremental = rendersIncremental(mode);
  const renderOptions = { db: facts?.db, existing, incremental, run: context, log: input.log, debug: input.debug, print: input.print, graph: input.graph };
  const ranges = mode.kind === 'backfill' && mode.guarded ? mode.range.ranges : undefined;
  const rendered = ranges && ranges.length > 1
    ? renderBackfillRanges(manifest, node, ranges, renderOptions)
    : (incremental ? input.renderings?.incremental : input.renderings?.full) ?? renderModel(manifest, node, renderOptions);
  const strategy = node.settings.strategy;
  const macro = strategy === undefined ? undefined : strategyMacroName(strategy);
  const custom = strategy !== undefined && macro !== undefined && !isBuiltinStrategy(strategy) && manifest.jinja.macroNames.includes(macro);
  const key = node.settings.uniqueKeyColumns;
  // dbt applies unique_key only on incremental runs: a full build of a model whose output lacks a key column succeeds.
  const produced = mode.kind === 'full' && strategy !== undefined && key.length > 0 && facts ? facts.selectColumns(rendered.sql)?.map((c) => c.name) : undefined;
  const keyNotProduced = produced ? keyColumns(key).filter((k) => !produced.some((c) => c.toLowerCase() === k.toLowerCase())) : undefined;
  const contract = mode.kind === 'ephemeral' ? undefined : contractPlan(manifest, node, rendered.sql, facts);
  for (const warning of contract?.warnings ?? []) warnUser(`${node.file.path}: ${warning.message}`, warning.event);
  const plan = planModel({
    node: withRuntimeHooks(node),
    sql: rendered.sql,
    mode,
    existing,
    targetColumns: facts && existing === 'table' ? facts.columns(node.alias, node.schema).map((c) => c.name) : [],
    backfill: context.backfill !== undefined,
    schema: incremental && facts ? contractSchema(schemaOf(facts, node, rendered.sql), contract?.table?.spec) : undefined,
    renderCustom: custom ? (args) => renderStrategyMacro(manifest, node, macro!, args, renderOptions) : undefined,
    ...(keyNotProduced && keyNotProduced.length > 0 ? { keyNotProduced } : {}),
    ...(contract?.table ? { contract: contract.table } : {}),
  });
  // A contract that failed its checks stops the run before anything is written, as dbt's preflight does.
  if (!contract?.failure) return withPersistedDocs(withGrants(plan, node, facts, existing), node, facts ? () => facts.selectColumns(rendered.sql)?.map((c) => c.name) : undefined);
  const { schemaChange: _unused, ...refused } = plan;
  return { ...refused, statements: [{ kind: 'fail', message: contract.failure }] };
}

/**
 * dbt's apply_grants (PostgreSQL): after the transactional post-hooks, before persist_docs, in the publish
 * transaction. A relation the build keeps (an incremental run into the existing table: dbt's should_revoke)
 * has its current grants read and what the config no longer lists revoked; a rebuilt table or view is a
 * new relation with no grants, so only grants are issued.
 */
function withGrants(plan: NodePlan, node: ModelNode, facts: WarehouseFacts | undefined, existing: RelationKind | null): NodePlan {
  const grants = readGrants(node.config);
  if (plan.mode === 'ephemeral' || grants === undefined) return plan;
  const keeps = (plan.mode === 'incremental' || plan.mode === 'backfill') && existing === 'table';
  const statements = grantStatements({ schema: node.schema, alias: node.alias, grants, ...(keeps && facts ? { current: currentGrants(facts.db, node.schema, node.alias) } : {}) });
  return statements.length === 0 ? plan : { ...plan, statements: [...plan.statements, ...statements] };
}

/** A microbatch model's grants, applied by its first batch (the later ones find them in place, as dbt's do). */
function withBatchGrants(plan: NodePlan, node: ModelNode, facts: WarehouseFacts | undefined, existing: RelationKind | null): NodePlan {
  const grants = readGrants(node.config);
  const [first, ...rest] = plan.batches ?? [];
  if (grants === undefined || first === undefined) return plan;
  const keeps = first.mode === 'incremental' && existing === 'table';
  const statements = grantStatements({ schema: node.schema, alias: node.alias, grants, ...(keeps && facts ? { current: currentGrants(facts.db, node.schema, node.alias) } : {}) });
  return statements.length === 0 ? plan : { ...plan, batches: [{ ...first, statements: [...first.statements, ...statements] }, ...rest] };
}

/** dbt's persist_docs (PostgreSQL): the comments run last in the publish, on the relation the plan builds. */
function withPersistedDocs(plan: NodePlan, node: ModelNode, outputColumns: (() => readonly string[] | undefined) | undefined): NodePlan {
  if (plan.mode === 'ephemeral' || node.config.persist_docs === undefined) return plan;
  const comments = persistDocsStatements({
    schema: node.schema, alias: node.alias, kind: plan.mode === 'view' ? 'view' : 'table', config: node.config,
    description: node.properties?.description, columns: node.properties?.columns ?? [], outputColumns: outputColumns?.(),
  });
  return comments.length === 0 ? plan : { ...plan, statements: [...plan.statements, ...comments] };
}

/** The plan with its audits run last inside the publish transaction (each batch's, for microbatch plans). */
export function withAudits(plan: NodePlan, audits: readonly AuditStatement[]): NodePlan {
  if (audits.length === 0 || plan.mode === 'ephemeral') return plan;
  return {
    ...plan,
    statements: plan.batches ? plan.statements : [...plan.statements, ...audits],
    ...(plan.batches ? { batches: plan.batches.map((b) => ({ ...b, statements: [...b.statements, ...audits] })) } : {}),
  };
}
