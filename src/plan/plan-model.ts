import type { ModelNode } from '../compile/manifest.js';
import { shouldFullRefresh } from '../compile/should-full-refresh.js';
import { effectiveStrategy } from '../config/model-config.js';
import { quoteIdentifier } from '../db/quote-identifier.js';
import type { RelationKind } from '../db/relation-kind.js';
import { incrementalStatements, keyChecks, type IncrementalRunOptions } from '../materialize/incremental.js';
import { tableStatements } from '../materialize/table.js';
import { viewStatements } from '../materialize/view.js';
import { keylessAppendNote } from './keyless-append-note.js';
import type { NodePlan } from './node-plan.js';

export interface PlanModelInput {
  readonly node: ModelNode;
  /** The rendered SELECT (runtime pass). */
  readonly sql: string;
  readonly existing: RelationKind | null;
  /** The target's columns when it exists as a table. */
  readonly targetColumns: readonly string[];
  readonly fullRefresh: boolean;
  /** A run given both `start` and `end` vars rewrites that range: a backfill. */
  readonly backfill: boolean;
  /** The backfill command's range, checked on the staged rows (see rangeGuard). */
  readonly rangeGuard?: IncrementalRunOptions['rangeGuard'];
  /** The target's and the new output's columns (introspected before planning): on_schema_change applies. */
  readonly schema?: IncrementalRunOptions['schema'];
  /** Renders the project's get_incremental_<name>_sql macro, when the strategy is the project's own. */
  readonly renderCustom?: IncrementalRunOptions['renderCustom'];
}

/** The partition column a model declares (partition_by, a string or {field}). */
export function partitionColumn(node: { config: Readonly<Record<string, unknown>> }): string | undefined {
  const p = node.config.partition_by;
  if (typeof p === 'string') return p;
  if (typeof p === 'object' && p !== null && typeof (p as { field?: unknown }).field === 'string') return (p as { field: string }).field;
  return undefined;
}

/** Pure: decide what a model's build does and the statements it runs. */
export function planModel(input: PlanModelInput): NodePlan {
  const { node, sql, existing } = input;
  const materialization = String(node.config.materialized);
  const note = keylessAppendNote(node.config);
  const base = {
    uniqueId: node.uniqueId, name: node.name, relation: quoteIdentifier(node.alias), materialization, sql, partitionColumn: partitionColumn(node),
    ...(note ? { notes: [note] } : {}),
  };
  if (materialization === 'ephemeral') {
    return { ...base, mode: 'ephemeral', reason: 'ephemeral models are never built: their SQL is inlined as a CTE into every model that refs them', statements: [] };
  }
  if (materialization === 'view') {
    return { ...base, mode: 'view', reason: 'views are replaced on every run', statements: viewStatements(node.alias, sql, existing, node.config) };
  }
  const full = (reason: string, strategy?: string): NodePlan => ({
    ...base,
    strategy,
    mode: 'full',
    reason,
    statements: tableStatements({
      alias: node.alias,
      sql,
      config: node.config,
      partitionColumn: base.partitionColumn,
      checks: materialization === 'incremental' ? (staged) => keyChecks(node.name, staged, node.config, { unique: effectiveStrategy(node.config) === 'merge', refuseNulls: input.backfill }) : undefined,
    }),
  });
  if (materialization === 'table') return full('tables are rebuilt on every run');
  // incremental
  const strategy = effectiveStrategy(node.config);
  if (existing === null) return full('first build: the target does not exist yet', strategy);
  if (existing === 'view') return full('the existing relation is a view', strategy);
  if (shouldFullRefresh(node.config, input.fullRefresh)) {
    return full(node.config.full_refresh === true ? 'config full_refresh: true' : '--full-refresh', strategy);
  }
  const incremental = incrementalStatements({
    model: node.name,
    alias: node.alias,
    sql,
    config: node.config,
    targetColumns: input.targetColumns,
    partitionColumn: base.partitionColumn,
    checkUniqueKey: input.backfill,
    rangeGuard: input.backfill ? input.rangeGuard : undefined,
    schema: input.schema,
    renderCustom: input.renderCustom,
  });
  return {
    ...base,
    strategy,
    mode: input.backfill ? 'backfill' : 'incremental',
    reason: input.backfill ? 'is_incremental() with start/end vars: rewrite that range' : 'is_incremental(): the target exists as a table',
    statements: incremental.statements,
    ...(incremental.schemaChange ? { schemaChange: incremental.schemaChange } : {}),
  };
}
