import { dialect } from '../engine/current-engine.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import type { IncrementalModelSettings, ModelSettings } from '../config/model-settings.js';
import type { SchemaChange } from './schema-diff.js';
import type { PlannedStatement } from './planned-statement.js';
import type { ColumnSpec } from './schema-diff.js';
import { hookStatements } from './hook-statements.js';
import { sqlHeaderStatements } from './sql-header-statement.js';
import { keyColumns, keySql } from './key-sql.js';
import type { BatchWindow } from './incremental/incremental-strategy.js';
import { getStrategy, strategyRules } from './incremental/strategy-registry.js';
import { schemaChangeStatements } from './schema-change-statements.js';
import { emptiedPartitions, rangeGuard, type GuardedRange } from './range-guard.js';
import { newRowsName as newRowsTableName, newRowsTable } from './staging-names.js';

/** What a project strategy macro receives (dbt's arg dict, before it becomes Relations). */
export interface CustomStrategyArgs {
  readonly alias: string;
  /** The temp table's name and its qualified, quoted form. */
  readonly newRowsName: string;
  readonly newRows: string;
  readonly uniqueKey: unknown;
  readonly destColumns: readonly ColumnSpec[];
  readonly predicates: readonly string[];
}

export interface IncrementalRunOptions {
  readonly model: string;
  /** The model's file (named in on_schema_change: fail's message, as dbt names it). */
  readonly modelPath?: string;
  readonly alias: string;
  /** The schema the target lives in (default main, or an attached one). */
  readonly targetSchema?: string;
  readonly sql: string;
  /** The model's settings (node.settings, hooks rendered). */
  readonly settings: ModelSettings;
  /** The target's current columns (on_schema_change: ignore writes these). */
  readonly targetColumns: readonly string[];
  readonly partitionColumn?: string;
  /** Check the key is unique and not NULL among the new rows (backfills), instead of warning about NULLs. */
  readonly checkUniqueKey?: boolean;
  /** The backfill command's range: every partition written must lie in it. */
  readonly rangeGuard?: GuardedRange;
  /** The target's and the new output's columns, known before the run: on_schema_change applies. */
  readonly schema?: {
    readonly target: readonly ColumnSpec[];
    readonly source: readonly ColumnSpec[];
    readonly indexes: readonly { readonly name: string; readonly columns: readonly string[] }[];
  };
  /** microbatch: the batch this publish replaces. */
  readonly window?: BatchWindow;
  /** Render a project's get_incremental_<name>_sql macro (given when the project defines it). */
  readonly renderCustom?: (args: CustomStrategyArgs) => string;
  /** Which hooks this publish runs (microbatch: pre-hooks with the first batch, post-hooks with the last). */
  readonly hooks?: { readonly pre: boolean; readonly post: boolean };
  /** Later microbatch batches: the first batch already reconciled the schema; write these columns. */
  readonly destColumns?: readonly string[];
}

export interface IncrementalPlan {
  readonly statements: PlannedStatement[];
  readonly schemaChange?: SchemaChange;
  /** The columns the strategy writes. */
  readonly destColumns: readonly string[];
}

/**
 * Checks every publish of a keyed model makes on the rows it is about to
 * write. A NULL key is written, as dbt writes it, with a warning giving the
 * count: NULL equals nothing, so delete+insert never deletes such a row and
 * merge never matches it, and each rerun of its window adds it again.
 * `refuseNulls` (a backfill checks its range before publishing) or the
 * config `unique_key_nulls: error` refuses them instead. `unique` also
 * refuses a key (without NULLs) produced twice.
 */
export function keyChecks(model: string, relation: string, settings: ModelSettings, options: { unique?: boolean; refuseNulls?: boolean } = {}): PlannedStatement[] {
  const key = settings.uniqueKeyColumns;
  if (key.length === 0) return [];
  const keys = key.map(keySql).join(', ');
  const byConfig = settings.uniqueKeyNulls === 'error';
  const refuse = options.refuseNulls === true || byConfig;
  const consequence = settings.materialized === 'incremental' ? strategyRules(settings.strategy).nullKeyConsequence : undefined;
  const nullChecks = key.flatMap((column): PlannedStatement[] => {
    const sql = `select count(*) from ${relation} where ${keySql(column)} is null`;
    if (refuse) {
      return [{
        kind: 'assert-none',
        sql,
        message: `model '${model}' produced NULL in unique_key column '${column}'`,
        hint: byConfig ? 'unique_key_nulls: error refuses NULL keys (dbt writes them, and a rerun adds them again)' : undefined,
      }];
    }
    if (!consequence) return [];
    return [{
      kind: 'warn-count',
      sql,
      message: `NULL in unique_key column '${column}'; ${consequence}, so a rerun adds them again (dbt's behaviour; unique_key_nulls: error refuses them)`,
    }];
  });
  return [
    ...(keyColumns(key).length > 0 ? [{ kind: 'require-columns', relation, columns: keyColumns(key), config: 'unique_key' } as const] : []),
    ...nullChecks,
    ...(options.unique
      ? [{
        kind: 'assert-none',
        sql: `select count(*) from (select ${keys} from ${relation} where ${key.map((c) => `${keySql(c)} is not null`).join(' and ')} group by ${keys} having count(*) > 1) as duplicate_keys`,
        message: `model '${model}' produced duplicate unique_key (${key.join(', ')}) values`,
      } as const]
      : []),
  ];
}

function incrementalSettings(options: IncrementalRunOptions): IncrementalModelSettings {
  const { settings } = options;
  if (settings.materialized !== 'incremental') throw new Error(`internal: model '${options.model}' planned as incremental but materialized as ${settings.materialized}`);
  return settings;
}

/** An incremental run: new rows into a temp table, checked, schema reconciled, then the strategy's statements. */
export function incrementalStatements(options: IncrementalRunOptions): IncrementalPlan {
  const newRows = newRowsTable(options.alias);
  const newRowsName = newRowsTableName(options.alias);
  const targetSchema = options.targetSchema ?? 'main';
  const settings = incrementalSettings(options);
  const strategy = getStrategy(settings.strategy, options.renderCustom !== undefined);
  const predicates = settings.incrementalPredicates;
  const change = options.schema && !options.destColumns
    ? schemaChangeStatements({
      model: options.model,
      modelPath: options.modelPath,
      alias: options.alias,
      targetSchema,
      newRows,
      mode: settings.onSchemaChange,
      target: options.schema.target,
      source: options.schema.source,
      targetIndexes: options.schema.indexes,
      settings,
    })
    : undefined;
  const destColumns = options.destColumns ?? change?.destColumns ?? options.targetColumns;
  const specs = [...(options.schema?.source ?? []), ...(options.schema?.target ?? [])];
  const customSql = options.renderCustom?.({
    alias: options.alias,
    newRowsName,
    newRows,
    uniqueKey: settings.uniqueKey,
    destColumns: destColumns.map((n) => specs.find((c) => c.name === n) ?? { name: n, type: '' }),
    predicates,
  });
  const refusal = (change?.statements ?? []).filter((s) => s.kind === 'fail');
  const statements: PlannedStatement[] = [
    ...refusal,
    { kind: 'exec', role: 'drop', sql: dialect.dropRelation('table', newRows, { ifExists: true }) },
    ...(options.hooks?.pre === false ? [] : hookStatements(settings, 'pre_hook')),
    ...sqlHeaderStatements(settings),
    { kind: 'exec', role: 'stage', sql: dialect.createTableAs(quoteIdentifier(newRowsName), options.sql, { temp: true }) },
    ...keyChecks(options.model, newRows, settings, { unique: options.checkUniqueKey, refuseNulls: options.checkUniqueKey }),
    ...(options.rangeGuard && options.partitionColumn ? [rangeGuard(options.model, newRows, options.partitionColumn, options.rangeGuard)] : []),
  ];
  const target = qualifiedName(targetSchema, options.alias);
  const emptied = options.rangeGuard && options.partitionColumn && !options.window ? emptiedPartitions(target, newRows, options.partitionColumn, options.rangeGuard) : undefined;
  if (emptied) {
    statements.push({ kind: 'collect-partitions', sql: emptied.partitions }, { kind: 'exec', role: 'delete', sql: emptied.delete });
  } else if (options.partitionColumn && !options.window) {
    statements.push({ kind: 'collect-partitions', sql: `select distinct ${quoteIdentifier(options.partitionColumn)} from ${newRows} order by 1` });
  }
  statements.push(
    ...(change?.statements ?? []).filter((s) => s.kind !== 'fail'),
    ...strategy.statements({
      model: options.model,
      target,
      targetName: options.alias,
      targetSchema,
      newRows,
      uniqueKey: settings.uniqueKeyColumns,
      destColumns: destColumns.map(quoteIdentifier),
      predicates,
      settings,
      partitionBy: options.partitionColumn,
      window: options.window,
      customSql,
    }),
    ...(options.hooks?.post === false ? [] : hookStatements(settings, 'post_hook')),
    { kind: 'exec', role: 'drop', sql: dialect.dropRelation('table', newRows) },
  );
  return { statements, schemaChange: change?.change, destColumns };
}
