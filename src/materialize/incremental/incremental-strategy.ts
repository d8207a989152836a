import type { NodeConfig } from '../../compile/manifest.js';
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
  /** The quoted target relation. */
  readonly target: string;
  /** The quoted, qualified temp table holding the new rows. */
  readonly newRows: string;
  readonly uniqueKey: readonly string[];
  /** Columns to write, quoted already (the target's, under on_schema_change: ignore). */
  readonly destColumns: readonly string[];
  readonly predicates: readonly string[];
  readonly config: NodeConfig;
  /** insert_overwrite: the partition_by column. */
  readonly partitionBy?: string;
  /** microbatch: the batch being written. */
  readonly window?: BatchWindow;
  /** A project strategy: the SQL its get_incremental_<name>_sql macro returned. */
  readonly customSql?: string;
}

/** One incremental strategy: a file, a registry line and a test file each. */
export interface IncrementalStrategy {
  readonly name: string;
  /** Whether the strategy needs a unique_key. */
  readonly needsUniqueKey: boolean;
  statements(context: StrategyContext): PlannedStatement[];
}
