import type { Deferral } from './deferral.js';

/**
 * The facts of one invocation, decided once where the command starts
 * (api/run.ts) and read, never copied field by field, by every layer
 * below: rendering (`invocation_id`, `run_started_at`, `flags`), planning
 * (full refresh, backfill range, event-time range, retried batches) and
 * running (warn-error, store-failures).
 */
export interface RunContext {
  readonly invocationId: string;
  /** The wall-clock start of the command (timings, `run_started_at`); never the as-of of the data. */
  readonly startedAt: Date;
  /** dbt's --full-refresh flag (a model's `full_refresh` config beats it). */
  readonly fullRefresh: boolean;
  /** A backfill: the range the run rewrites (see BackfillRange). */
  readonly backfill?: BackfillRange;
  /** --event-time-start/--event-time-end: microbatch models build exactly [start, end). */
  readonly eventTime?: EventTimeRange;
  /** `retry`: only these batch windows of these microbatch models (by unique id). */
  readonly retryBatches?: ReadonlyMap<string, readonly BatchBounds[]>;
  /** `retry`: the batches of these models that succeeded before, listed again in batch_results as dbt lists them. */
  readonly retrySucceeded?: ReadonlyMap<string, readonly BatchBounds[]>;
  /** --warn-error: a test or audit that would warn fails. */
  readonly warnError: boolean;
  /** --store-failures: every data test keeps its failing rows in a table. */
  readonly storeFailures: boolean;
  /** The vars templates see (project vars under --vars), as resolved for this invocation. */
  readonly vars: Readonly<Record<string, unknown>>;
  /**
   * dbt's --empty: ref() and source() render as `(select * from x where false
   * limit 0)` subqueries (ephemeral refs too), so every relation is built with
   * its columns and no rows; `this` is not limited.
   */
  readonly empty?: boolean;
  /**
   * dbt 1.10's --sample (run, build): refs and sources with an `event_time` render as subqueries keeping
   * the rows in [start, end), as a microbatch batch's do (config/sample-window.ts reads the flag).
   */
  readonly sample?: EventTimeRange;
  /** dbt's --fail-fast: after the first failure the nodes not yet started are skipped. */
  readonly failFast?: boolean;
  /** The unique ids the invocation selected, in run order (dbt's `selected_resources`); absent: none (run-operation, parsing). */
  readonly selectedResources?: readonly string[];
  /** The command (dbt's `flags.WHICH` and `invocation_args_dict.which`: run, build, test, seed, snapshot, compile, run-operation, show, ...); absent: run. */
  readonly command?: string;
  /** dbt's --defer: the state manifest's relations a ref() to an unselected or unbuilt node reads (compile/deferred-ref.ts). */
  readonly defer?: Deferral;
}

/**
 * A backfill's range, inclusive, as ISO texts: the `backfill` command
 * checked them as dates; `run --vars '{start: ..., end: ...}'` passes them as
 * given (dbt's vars: the model's SQL decides what they mean). `guarded` is
 * the unique id of the model whose written partitions must lie in the range
 * (the backfill command's promise, checked inside the publish).
 */
export interface BackfillRange {
  readonly start: string;
  readonly end: string;
  readonly guarded?: string;
  /**
   * Several disjoint ranges inside start..end (their envelope), rewritten in
   * one publish: the guarded model is rendered once per range (its start/end
   * vars set to that range), the renders staged as one union, and only
   * partitions inside one of these ranges may be written.
   */
  readonly ranges?: readonly { readonly start: string; readonly end: string }[];
}

export interface EventTimeRange {
  readonly start: Date;
  readonly end: Date;
}

/** One microbatch batch window [start, end), as SQL time text. */
export interface BatchBounds {
  readonly start: string;
  readonly end: string;
}

/** The context of a render outside any run (capture pass, docs, analysis): dbt's parse-time values. */
export const PARSE_CONTEXT: RunContext = Object.freeze({
  invocationId: '',
  startedAt: new Date(0),
  fullRefresh: false,
  warnError: false,
  storeFailures: false,
  vars: Object.freeze({}),
});

/**
 * mini-dbt's backfill convention (the brief's `--vars '{start: ..., end: ...}'`):
 * a run given both `start` and `end` vars rewrites that range. Read once,
 * where the invocation starts; below it the range is `context.backfill`.
 */
export function backfillOfVars(vars: Readonly<Record<string, unknown>>): BackfillRange | undefined {
  const { start, end } = vars;
  if (start === undefined || start === null || end === undefined || end === null) return undefined;
  return { start: String(start), end: String(end) };
}
