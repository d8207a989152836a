import type { RunContext } from '../invocation/run-context.js';
import type { NodePlan } from '../plan/node-plan.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';

/** How the command loaded its session (api/session.ts SessionOptions, the fields a thread needs to load it again). */
export interface SessionReload {
  readonly projectDir?: string;
  readonly database?: string;
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly busyTimeoutMs?: number;
  readonly profilesDir?: string;
  readonly profile?: string;
  readonly target?: string;
  readonly partialParse?: boolean;
  readonly targetPath?: string;
}

/** What a node pool thread starts with. */
export interface NodePoolData {
  readonly role: 'mini-dbt-node-pool';
  /** How the command loaded its session: the thread loads it again the same way. */
  readonly sessionOptions: SessionReload;
  readonly busyTimeoutMs: number;
  readonly context: RunContext;
  /** The run's node ids. */
  readonly order: readonly string[];
  /** What the command's session works on: a thread whose session loads otherwise (a replay's copy, say) does not start. */
  readonly expect: { readonly databasePath: string; readonly schema: string };
}

/** The failed and blocked nodes so far (NodeRunState, as arrays). */
export interface SharedState {
  readonly failed: string[];
  readonly blocked: string[];
  readonly blockedModels: [string, string][];
}

export type ToWorker =
  | { readonly type: 'run'; readonly taskId: number; readonly nodeId: string; readonly index: number; readonly total: number; readonly state: SharedState }
  | { readonly type: 'close' };

export type ToPool =
  | { readonly type: 'ready' }
  | { readonly type: 'open-failed'; readonly error: Error }
  | { readonly type: 'event'; readonly event: RunEvent }
  | { readonly type: 'planned'; readonly nodeId: string; readonly plan: NodePlan }
  | { readonly type: 'done'; readonly taskId: number; readonly result: NodeResult; readonly state: SharedState }
  | { readonly type: 'crashed'; readonly error: Error };

/**
 * A message as JSON can carry it, for one that structured clone refused (it
 * holds a function): functions dropped, errors as their message, name,
 * hint and exit code.
 */
export function asJson<T>(message: T): T {
  return JSON.parse(JSON.stringify(message, (_key, value: unknown) => (value instanceof Error ? plainError(value) : value))) as T;
}

/** An error's fields a result line and run_results.json use. */
export function plainError(error: Error): Record<string, unknown> {
  const fields = error as Error & { hint?: string; exitCode?: number };
  return { name: error.name, message: error.message, ...(fields.hint !== undefined ? { hint: fields.hint } : {}), ...(fields.exitCode !== undefined ? { exitCode: fields.exitCode } : {}) };
}
