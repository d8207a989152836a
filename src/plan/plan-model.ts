import type { ModelNode } from '../compile/manifest.js';
import { isKeyExpression } from '../config/key-expression.js';
import { invalidOnSchemaChangeNote } from '../config/model-config.js';
import { dialect } from '../engine/current-engine.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import type { RelationKind } from '../engine/relation-kind.js';
import { incrementalStatements, keyChecks, type IncrementalRunOptions } from '../materialize/incremental.js';
import { tableStatements } from '../materialize/table.js';
import { viewStatements } from '../materialize/view.js';
import { strategyRules } from '../materialize/incremental/strategy-registry.js';
import type { BuildMode } from './build-mode.js';
import { keylessAppendNote } from './keyless-append-note.js';
import type { NodePlan } from './node-plan.js';
import { withContractNewRows, type ContractSpec } from '../materialize/contract-table.js';

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
  /**
   * A full build only: the unique_key columns the model's SELECT does not produce (planNode
   * describes it). dbt's full build ignores the key, so the build goes ahead without the key's
   * checks and index, with a note; the next incremental run fails on them.
   */
  readonly keyNotProduced?: readonly string[];
  /** An enforced contract that passed its preflight: a full build creates the table with its DDL; an incremental run checks its new rows. */
  readonly contract?: { readonly spec: ContractSpec; readonly body: string };
}

/** Pure: the statements of a model's build in the mode decided for it. */
export function planModel(input: PlanModelInput): NodePlan {
  const { node, sql, existing, mode } = input;
  const settings = withKeyAsWritten(node.settings);
  const materialization = settings.materialized;
  const note = keylessAppendNote(settings);
  const base = {
    uniqueId: node.uniqueId, name: node.name, relation: qualifiedName(node.schema, node.alias), materialization, sql, partitionColumn: settings.partitionColumn,
    ...(note ? { notes: [note] } : {}),
  };
  switch (mode.kind) {
    case 'ephemeral':
      return { ...base, mode: 'ephemeral', reason: mode.reason, statements: [] };
    case 'view':
      return { ...base, mode: 'view', reason: mode.reason, statements: viewStatements(node.alias, sql, existing, settings, node.schema) };
    case 'full': {
      const strategy = settings.strategy;
      const missing = input.keyNotProduced ?? [];
      const ignoreKey = missing.length > 0;
      const incremental = strategy !== undefined && !ignoreKey;
      const keyNote = ignoreKey
        ? `unique_key column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `'${c}'`).join(', ')} not in the model's output: a full build ignores the key (as dbt's does), but the next incremental run will fail on it`
        : undefined;
      return {
        ...base,
        ...(keyNote ? { notes: [...(base.notes ?? []), keyNote] } : {}),
        strategy,
        mode: 'full',
        reason: mode.reason,
        statements: tableStatements({
          alias: node.alias,
          schema: node.schema,
          sql,
          settings: ignoreKey ? { ...settings, uniqueKeyColumns: [] } : settings,
          partitionColumn: base.partitionColumn,
          ...(input.contract ? { contract: input.contract } : {}),
          checks: incremental ? (staged) => keyChecks(node.name, staged, settings, { unique: strategyNeedsUniqueKey(strategy, settings.uniqueKeyColumns), refuseNulls: input.backfill }) : undefined,
        }),
      };
    }
    case 'incremental':
    case 'backfill': {
      const backfill = mode.kind === 'backfill';
      const oscNote = invalidOnSchemaChangeNote(node.config);
      const incremental = incrementalStatements({
        model: node.name,
        alias: node.alias,
        modelPath: node.file.path,
        targetSchema: node.schema,
        sql,
        settings,
        targetColumns: input.targetColumns,
        partitionColumn: base.partitionColumn,
        checkUniqueKey: backfill,
        rangeGuard: backfill && mode.guarded ? mode.range : undefined,
        schema: input.schema,
        renderCustom: input.renderCustom,
      });
      return {
        ...base,
        ...(oscNote ? { notes: [...(base.notes ?? []), oscNote] } : {}),
        strategy: settings.strategy,
        mode: mode.kind,
        reason: mode.reason,
        statements: input.contract ? withContractNewRows(incremental.statements, node, sql, input.contract.spec) : incremental.statements,
        ...(incremental.schemaChange ? { schemaChange: incremental.schemaChange } : {}),
      };
    }
    default: {
      const never: never = mode;
      return never;
    }
  }
}

/**
 * The unique_key's column names as the engine reads them unquoted (dbt writes
 * the key into its SQL unquoted): a key 'STATE' is the column state on
 * PostgreSQL too. Expressions stay as written.
 */
function withKeyAsWritten<S extends ModelNode['settings']>(settings: S): S {
  const key = settings.uniqueKeyColumns;
  const folded = key.map((k) => (isKeyExpression(k) ? k : dialect.unquotedName(k)));
  return folded.every((k, i) => k === key[i]) ? settings : { ...settings, uniqueKeyColumns: folded };
}

/** Whether a strategy's table carries a unique index on the key (merge's upsert): a full build refuses a duplicate key then. */
function strategyNeedsUniqueKey(strategy: string | undefined, key: readonly string[]): boolean {
  return strategy !== undefined && key.length > 0 && strategyRules(strategy).indexes(key).some((i) => i.unique);
}
