import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import type { ModelSettings } from '../config/model-settings.js';
import type { PlannedStatement } from './planned-statement.js';
import { hookStatements } from './hook-statements.js';
import { sqlHeaderStatements } from './sql-header-statement.js';
import { indexStatements } from './model-indexes.js';
import { stagedTableName } from './staging-names.js';
import { contractTableStatements, type ContractSpec } from './contract-table.js';

export interface TableBuildOptions {
  readonly alias: string;
  /** The schema the table is built in (main, or an attached one). */
  readonly schema: string;
  readonly sql: string;
  /** The model's settings (node.settings, hooks rendered). */
  readonly settings: ModelSettings;
  /** Extra checks on the staged table before it is swapped in. */
  readonly checks?: (staged: string) => PlannedStatement[];
  readonly partitionColumn?: string;
  /** An enforced contract: the table is created with its declared columns and constraints, then filled. */
  readonly contract?: { readonly spec: ContractSpec; readonly body: string };
}

/**
 * A full build: CREATE TABLE AS into a staging name, check, swap it in,
 * index it. The executor runs all of it in one transaction, so a failure
 * leaves the old relation exactly as it was.
 */
export function tableStatements(options: TableBuildOptions): PlannedStatement[] {
  const staged = stagedTableName(options.alias);
  const q = qualifiedName(options.schema, staged);
  const target = qualifiedName(options.schema, options.alias);
  const { settings } = options;
  const statements: PlannedStatement[] = [
    { kind: 'exec', role: 'drop', sql: dialect.dropRelation('table', q, { ifExists: true }) },
    ...hookStatements(settings, 'pre_hook'),
    ...sqlHeaderStatements(settings),
    ...(options.contract
      ? contractTableStatements(q, options.sql, options.contract.spec, options.contract.body, { schema: options.schema, alias: options.alias })
      : [{ kind: 'exec', role: 'stage', sql: dialect.createTableAs(q, options.sql) } as const]),
    ...(options.checks?.(q) ?? []),
    { kind: 'count-rows', sql: `select count(*) from ${q}` },
  ];
  if (options.partitionColumn) {
    statements.push({ kind: 'collect-partitions', sql: `select distinct ${quoteIdentifier(options.partitionColumn)} from ${q} order by 1` });
  }
  statements.push(
    { kind: 'swap', role: 'swap', staged, target: options.alias, schema: options.schema, sql: `drop <old ${target}> if it exists; ${dialect.renameTable(q, quoteIdentifier(options.alias))}` },
    ...indexStatements(options.alias, settings, options.schema).map((sql) => ({ kind: 'exec', role: 'index', sql }) as const),
    ...hookStatements(settings, 'post_hook'),
  );
  return statements;
}
