import type { NodePlan } from '../plan/node-plan.js';

export type NodeStatus = 'success' | 'error' | 'skipped';

export interface AdapterResponse {
  readonly _message: string;
  readonly code: string;
  readonly rows_affected: number;
}

/** One node's outcome, shaped after dbt's run_results entries. */
export interface NodeResult {
  readonly uniqueId: string;
  readonly name: string;
  readonly resourceType: 'model' | 'seed';
  readonly status: NodeStatus;
  readonly message: string | null;
  readonly executionTime: number;
  readonly startedAt: string;
  readonly completedAt: string;
  readonly adapterResponse: AdapterResponse | Record<string, never>;
  readonly compiledCode?: string;
  readonly relationName: string;
  readonly plan?: NodePlan;
  readonly rowsDeleted: number;
  readonly rowsInserted: number;
  readonly partitions: readonly string[];
  readonly asOf: string | null;
  /** 2 for project errors (bad config, missing var), 1 for data/SQL errors. */
  readonly exitCode: number;
  readonly error?: Error;
}

export type RunEvent =
  | { readonly type: 'start'; readonly index: number; readonly total: number; readonly description: string; readonly uniqueId: string }
  | { readonly type: 'result'; readonly index: number; readonly total: number; readonly description: string; readonly result: NodeResult }
  | { readonly type: 'log'; readonly message: string };
