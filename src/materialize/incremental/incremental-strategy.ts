import { keyColumns } from '../key-sql.js';
import type { NodeConfig } from '../../compile/manifest.js';
import type { IncrementalModelSettings, IndexConfig } from '../../config/model-settings.js';
import type { PlannedStatement } from '../planned-statement.js';

/** A microbatch batch's window on the event_time column, bounds as SQL text. */
export interface BatchWindow {
  readonly eventTime: string;
  readonly label: string;
  readonly start: string;
  readonly end: string;
}

/** What a strategy needs to write its statements. */
export interface StrategyContext {
  readonly model: string;
  /** The quoted target relation (`"schema"."name"` outside main). */
  readonly target: string;
  /** The target's bare name and its schema (an index is named in the schema, on the bare table). */
  readonly targetName: string;
  readonly targetSchema: string;
  /** The quoted, qualified temp table holding the new rows. */
  readonly newRows: string;
  readonly uniqueKey: readonly string[];
  /** Columns to write, quoted already (the target's, under on_schema_change: ignore). */
  readonly destColumns: readonly string[];
  readonly predicates: readonly string[];
  readonly settings: IncrementalModelSettings;
  /** insert_overwrite: the partition_by column. */
  readonly partitionBy?: string;
  /** microbatch: the batch being written. */
  readonly window?: BatchWindow;
  /** A project strategy: the SQL its get_incremental_<name>_sql macro returned. */
  readonly customSql?: string;
}

/** A config problem a strategy finds: the message, the text to point at in the model file, a hint. */
export interface ConfigProblem {
  readonly message: string;
  /** Located at the first line of the model file containing this text. */
  readonly at: string;
  readonly hint?: string;
}

/**
 * One incremental strategy owns its rules: a file, a registry line
 * (strategy-registry.ts) and a test file each. Nothing else names it.
 */
export interface IncrementalStrategy {
  readonly name: string;
  /** Its own config rules, checked when the project is loaded (the first problem is reported). */
  validate(config: NodeConfig, model: string): ConfigProblem[];
  /** The indexes a freshly built table needs for this strategy's statements (on the unique_key, if any). */
  indexes(uniqueKey: readonly string[]): IndexConfig[];
  /** Whether it deletes (or replaces) target rows: a backfill can rewrite a range only then. */
  readonly deletes: boolean;
  /** Without a unique_key it only inserts (delete+insert; merge, whose MERGE then matches on FALSE in dbt): a backfill refuses it then, as it refuses append. */
  readonly keylessInsertsOnly?: boolean;
  /** Why a row with a NULL unique_key survives a rerun (a warning gives its count), when the strategy uses the key. */
  readonly nullKeyConsequence?: string;
  statements(context: StrategyContext): PlannedStatement[];
}

/** The usual index: a plain one on the unique_key, so a keyed delete or lookup never scans the table. */
export function keyIndex(uniqueKey: readonly string[], unique = false): IndexConfig[] {
  // A key with an expression gets no index (the delete reads the new rows' key values; SQLite can seek a column only).
  return uniqueKey.length > 0 && keyColumns(uniqueKey).length === uniqueKey.length ? [{ columns: uniqueKey, unique }] : [];
}
