import { quoteIdentifier } from '../db/quote-identifier.js';
import type { NodeConfig } from '../compile/manifest.js';
import { effectiveStrategy, uniqueKeyColumns } from '../config/model-config.js';
import type { PlannedStatement } from '../plan/node-plan.js';
import { hookStatements } from './hook-statements.js';
import { getStrategy } from './incremental/strategy-registry.js';
import { newRowsTable } from './staging-names.js';

export interface IncrementalRunOptions {
  readonly model: string;
  readonly alias: string;
  readonly sql: string;
  readonly config: NodeConfig;
  /** The target's current columns (on_schema_change: ignore writes these). */
  readonly targetColumns: readonly string[];
  readonly partitionColumn?: string;
  /** Also check the key is unique among the new rows (backfills: "key unique and not null"). */
  readonly checkUniqueKey?: boolean;
}

/** Checks every publish of a keyed model makes on the rows it is about to write. */
export function keyChecks(model: string, relation: string, config: NodeConfig, options: { unique?: boolean } = {}): PlannedStatement[] {
  const key = uniqueKeyColumns(config);
  if (key.length === 0) return [];
  const keys = key.map(quoteIdentifier).join(', ');
  return [
    { kind: 'require-columns', relation, columns: key, config: 'unique_key' },
    ...key.map((column) => ({
      kind: 'assert-none',
      sql: `select count(*) from ${relation} where ${quoteIdentifier(column)} is null`,
      message: `model '${model}' produced NULL in unique_key column '${column}'`,
    }) as const),
    ...(options.unique
      ? [{
        kind: 'assert-none',
        sql: `select count(*) from (select ${keys} from ${relation} group by ${keys} having count(*) > 1)`,
        message: `model '${model}' produced duplicate unique_key (${key.join(', ')}) values`,
      } as const]
      : []),
  ];
}

/** An incremental run: new rows into a temp table, checked, then the strategy's statements. */
export function incrementalStatements(options: IncrementalRunOptions): PlannedStatement[] {
  const newRows = newRowsTable(options.alias);
  const strategy = getStrategy(effectiveStrategy(options.config));
  const predicates = options.config.incremental_predicates;
  const statements: PlannedStatement[] = [
    { kind: 'exec', role: 'drop', sql: `drop table if exists ${newRows}` },
    ...hookStatements(options.config, 'pre_hook'),
    { kind: 'exec', role: 'stage', sql: `create temp table ${newRows.replace(/^temp\./, '')} as\n${options.sql}` },
    ...keyChecks(options.model, newRows, options.config, { unique: options.checkUniqueKey }),
  ];
  if (options.partitionColumn) {
    statements.push({ kind: 'collect-partitions', sql: `select distinct ${quoteIdentifier(options.partitionColumn)} from ${newRows} order by 1` });
  }
  statements.push(
    ...strategy.statements({
      model: options.model,
      target: quoteIdentifier(options.alias),
      newRows,
      uniqueKey: uniqueKeyColumns(options.config),
      destColumns: options.targetColumns.map(quoteIdentifier),
      predicates: Array.isArray(predicates) ? predicates.map(String) : [],
      config: options.config,
    }),
    ...hookStatements(options.config, 'post_hook'),
    { kind: 'exec', role: 'drop', sql: `drop table ${newRows}` },
  );
  return statements;
}
