import type { NodeConfig } from '../../compile/manifest.js';
import type { PlannedStatement } from '../../plan/node-plan.js';

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
}

/** One incremental strategy: a file, a registry line and a test file each. */
export interface IncrementalStrategy {
  readonly name: string;
  /** Whether the strategy needs a unique_key. */
  readonly needsUniqueKey: boolean;
  statements(context: StrategyContext): PlannedStatement[];
}
