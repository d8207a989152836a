import type { ProjectHookResult } from './hook-result.js';
import type { NodePlan } from '../plan/node-plan.js';

/** Models and seeds: success | error | skipped; data tests: pass | warn | fail | error | skipped. */
/** dbt's statuses; 'partial success': a microbatch model some of whose batches failed (the others are published). */
export type NodeStatus = 'success' | 'error' | 'partial success' | 'skipped' | 'pass' | 'warn' | 'fail';

/** A microbatch model's batches, as dbt's run_results `batch_results`: [start, end) windows. */
export interface BatchResults {
  readonly successful: readonly (readonly [string, string])[];
  readonly failed: readonly (readonly [string, string])[];
}

export interface AdapterResponse {
  readonly _message: string;
  readonly code: string;
  readonly rows_affected: number;
}

/** One raw row an incremental run left behind (landed since the previous run, for a day before its window). */
export interface LateRowSample {
  readonly source: string;
  /** The raw input's id column (order_id), null when it has none. */
  readonly id_column: string | null;
  readonly id: unknown;
  readonly partition: string;
  readonly loaded_at: string;
}

/**
 * What an incremental run did not apply: rows of its raw inputs that landed
 * after the previous successful run's as-of and by this run's, for partitions
 * before the window it rewrote (execute/late-rows-not-applied.ts).
 */
export interface LateRowsNotApplied {
  readonly rows: number;
  /** The previous successful run's as-of (rows landed after it count). */
  readonly landed_after: string;
  /** This run's as-of. */
  readonly landed_by: string;
  /** The partitions this run rewrote, first and last. */
  readonly window: readonly [string, string];
  readonly partitions: readonly { readonly partition: string; readonly rows: number }[];
  /** Up to 5 rows a partition, oldest landing first. */
  readonly sample: readonly LateRowSample[];
}

/** One node's outcome, shaped after dbt's run_results entries. */
export interface NodeResult {
  readonly uniqueId: string;
  readonly name: string;
  readonly resourceType: 'model' | 'seed' | 'snapshot' | 'test' | 'unit_test' | 'analysis';
  readonly status: NodeStatus;
  /** Data tests: the failing row count (0 when passing). */
  readonly failures?: number;
  /** Data tests with store_failures: the table holding the failing rows. */
  readonly storedFailures?: string;
  /** The thread that ran it (run_results' thread_id): Thread-1 unless --threads ran nodes side by side. */
  readonly threadId?: string;
  /** The file the node is defined in (a test's yml or .sql). */
  readonly path?: string;
  readonly message: string | null;
  readonly executionTime: number;
  readonly startedAt: string;
  readonly completedAt: string;
  readonly adapterResponse: AdapterResponse | Record<string, never>;
  readonly compiledCode?: string;
  readonly relationName: string | null;
  readonly plan?: NodePlan;
  readonly rowsDeleted: number;
  readonly rowsInserted: number;
  readonly partitions: readonly string[];
  readonly asOf: string | null;
  /** 2 for project errors (bad config, missing var), 1 for data/SQL errors. */
  readonly exitCode: number;
  readonly error?: Error;
  /** Microbatch models: which batches were built and which failed (or were skipped). */
  readonly batchResults?: BatchResults;
  /** An incremental run of a partitioned model with time-declared raw inputs: the late rows it left behind. */
  readonly lateRowsNotApplied?: LateRowsNotApplied;
  /** A failing unit test: its actual and expected rows (dbt's UnitTestDiff; the rendered table is the message). */
  readonly unitTestDiff?: { readonly actual: readonly Record<string, unknown>[]; readonly expected: readonly Record<string, unknown>[] };
}

export type RunEvent =
  | { readonly type: 'start'; readonly index: number; readonly total: number; readonly description: string; readonly uniqueId: string }
  | { readonly type: 'result'; readonly index: number; readonly total: number; readonly description: string; readonly result: NodeResult }
  /** A template's log() (level debug: log() without info=True, shown with --debug). */
  | { readonly type: 'log'; readonly message: string; readonly level?: 'debug' | 'print' }
  /** A project hook starting (no result yet) or done. */
  | { readonly type: 'hook'; readonly index: number; readonly total: number; readonly name: string; readonly result?: ProjectHookResult }
  /** A long seed load's progress (for a progress bar): bytes read in the stage, or the index build. */
  | { readonly type: 'progress'; readonly uniqueId: string; readonly name: string; readonly stage: 'load' | 'check' | 'index'; readonly done: number; readonly total: number };
