import type { ModelNode } from '../compile/manifest.js';
import { effectiveStrategy } from '../config/model-config.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import type { RelationKind } from '../engine/relation-kind.js';
import { incrementalStatements, keyChecks, type IncrementalRunOptions } from '../materialize/incremental.js';
import { tableStatements } from '../materialize/table.js';
import { viewStatements } from '../materialize/view.js';
import type { BuildMode } from './build-mode.js';
import { keylessAppendNote } from './keyless-append-note.js';
import type { NodePlan } from './node-plan.js';

export interface PlanModelInput {
  readonly node: ModelNode;
  /** The rendered SELECT (runtime pass). */
  readonly sql: string;
  /** How the model is built (buildMode; microbatch models are planned by planMicrobatch). */
  readonly mode: Exclude<BuildMode, { kind: 'microbatch' }>;
  readonly existing: RelationKind | null;
  /** The target's columns when it exists as a table. */
  readonly targetColumns: readonly string[];
  /** The invocation is a backfill (context.backfill): NULL keys are refused even on a first build. */
  readonly backfill: boolean;
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

/** Pure: the statements of a model's build in the mode decided for it. */
export function planModel(input: PlanModelInput): NodePlan {
  const { node, sql, existing, mode } = input;
  const materialization = String(node.config.materialized);
  const note = keylessAppendNote(node.config);
  const base = {
    uniqueId: node.uniqueId, name: node.name, relation: quoteIdentifier(node.alias), materialization, sql, partitionColumn: partitionColumn(node),
    ...(note ? { notes: [note] } : {}),
  };
  switch (mode.kind) {
    case 'ephemeral':
      return { ...base, mode: 'ephemeral', reason: mode.reason, statements: [] };
    case 'view':
      return { ...base, mode: 'view', reason: mode.reason, statements: viewStatements(node.alias, sql, existing, node.config) };
    case 'full': {
      const incremental = materialization === 'incremental';
      const strategy = incremental ? effectiveStrategy(node.config) : undefined;
      return {
        ...base,
        strategy,
        mode: 'full',
        reason: mode.reason,
        statements: tableStatements({
          alias: node.alias,
          sql,
          config: node.config,
          partitionColumn: base.partitionColumn,
          checks: incremental ? (staged) => keyChecks(node.name, staged, node.config, { unique: strategy === 'merge', refuseNulls: input.backfill }) : undefined,
        }),
      };
    }
    case 'incremental':
    case 'backfill': {
      const backfill = mode.kind === 'backfill';
      const incremental = incrementalStatements({
        model: node.name,
        alias: node.alias,
        sql,
        config: node.config,
        targetColumns: input.targetColumns,
        partitionColumn: base.partitionColumn,
        checkUniqueKey: backfill,
        rangeGuard: backfill && mode.guarded ? mode.range : undefined,
        schema: input.schema,
        renderCustom: input.renderCustom,
      });
      return {
        ...base,
        strategy: effectiveStrategy(node.config),
        mode: mode.kind,
        reason: mode.reason,
        statements: incremental.statements,
        ...(incremental.schemaChange ? { schemaChange: incremental.schemaChange } : {}),
      };
    }
    default: {
      const never: never = mode;
      return never;
    }
  }
}
