import type { ModelNode } from '../compile/manifest.js';
import { parseTime, microbatchNow } from '../config/microbatch-time.js';
import { isMicrobatch, type MicrobatchSettings } from '../config/model-settings.js';
import type { RelationKind } from '../engine/relation-kind.js';
import type { BackfillRange, RunContext } from '../invocation/run-context.js';
import { microbatchWindows, retryWindows, type MicrobatchWindows } from './microbatch-windows.js';

/**
 * How a model is built in this invocation, and why: the one place that
 * answers "incremental or full?". Rendering (is_incremental()), planning,
 * compile, docs and the backfill preview all read this value.
 */
export type BuildMode =
  | { readonly kind: 'ephemeral'; readonly reason: string }
  | { readonly kind: 'view'; readonly reason: string }
  | { readonly kind: 'full'; readonly reason: string }
  | { readonly kind: 'incremental'; readonly reason: string }
  /** An incremental run over a backfill's range; `guarded`: its partitions must lie in the range. */
  | { readonly kind: 'backfill'; readonly reason: string; readonly range: BackfillRange; readonly guarded: boolean }
  /** A microbatch model: its batches, each built full (the first of a first build) or over its window. */
  | { readonly kind: 'microbatch'; readonly reason: string; readonly incremental: boolean; readonly windows: MicrobatchWindows };

export interface BuildModeInput {
  readonly node: ModelNode;
  /** What the target is in the warehouse now (null when absent or when there is no warehouse). */
  readonly existing: RelationKind | null;
  readonly context: RunContext;
  /**
   * Microbatch models: the batch labels the run ledger records as built; asked
   * only for an incremental run (to fill gaps under fill_gaps: true, else to
   * report the never-built batches the run leaves, as dbt leaves them).
   */
  readonly builtBatches?: () => ReadonlySet<string>;
}

/** dbt's should_full_refresh(): the model's full_refresh config beats the flag. */
export function shouldFullRefresh(node: ModelNode, flag: boolean): boolean {
  return node.settings.fullRefresh ?? flag;
}

function whyFull(existing: RelationKind | null): string | undefined {
  if (existing === null) return 'first build: the target does not exist yet';
  if (existing === 'view') return 'the existing relation is a view';
  return undefined;
}

const INCREMENTAL_REASON = 'is_incremental(): the target exists as a table';
const PROTECTED_REASON = `${INCREMENTAL_REASON} (full_refresh: false beats --full-refresh, as in dbt)`;

/** Pure: decide how a model is built from its config, the warehouse's target, the flags and the backfill range. */
export function buildMode(input: BuildModeInput): BuildMode {
  const { node, existing, context } = input;
  const settings = node.settings;
  const materialized = settings.materialized;
  if (materialized === 'ephemeral') {
    return { kind: 'ephemeral', reason: 'ephemeral models are never built: their SQL is inlined as a CTE into every model that refs them' };
  }
  if (materialized === 'view') return { kind: 'view', reason: 'views are replaced on every run' };
  if (materialized !== 'incremental') return { kind: 'full', reason: 'tables are rebuilt on every run' };
  const refresh = shouldFullRefresh(node, context.fullRefresh);
  const full = whyFull(existing) ?? (refresh ? (settings.fullRefresh === true ? 'config full_refresh: true' : '--full-refresh') : undefined);
  const incrementalReason = context.fullRefresh && settings.fullRefresh === false ? PROTECTED_REASON : INCREMENTAL_REASON;
  if (isMicrobatch(settings)) return microbatchMode(input, settings, full, incrementalReason);
  if (full !== undefined) return { kind: 'full', reason: full };
  if (context.backfill) {
    return { kind: 'backfill', reason: 'is_incremental() with start/end vars: rewrite that range', range: context.backfill, guarded: context.backfill.guarded === node.uniqueId };
  }
  return { kind: 'incremental', reason: incrementalReason };
}

/**
 * A microbatch model's batches: the flags' range, else from begin (first
 * build) or the lookback (plus the ledger's never-built batches under
 * fill_gaps: true); a retry rewrites exactly its failed windows, never
 * rebuilding a table whose other batches succeeded.
 */
function microbatchMode(input: BuildModeInput, settings: MicrobatchSettings, full: string | undefined, incrementalReason: string): BuildMode {
  const { node, existing, context } = input;
  const retry = context.retryBatches?.get(node.uniqueId);
  const incremental = retry && existing === 'table' ? true : full === undefined;
  const size = settings.batchSize;
  const windows: MicrobatchWindows = retry
    ? { batches: retryWindows(retry, size, (t) => parseTime(t, 'a retried batch bound')), gaps: [], source: 'the failed batches of the last invocation (retry)' }
    : microbatchWindows({
      batchSize: size,
      begin: settings.begin,
      lookback: settings.lookback,
      now: microbatchNow(context.vars.as_of, context.startedAt),
      eventTime: context.eventTime,
      incremental,
      // Only an incremental run without the flags' range reads the ledger: to fill gaps, or to say what it leaves.
      built: incremental && !context.eventTime ? input.builtBatches?.() : undefined,
      fillGaps: settings.fillGaps,
      model: node.name,
    });
  return { kind: 'microbatch', reason: incremental ? incrementalReason : full ?? incrementalReason, incremental, windows };
}

/** Whether is_incremental() holds when the model's SELECT is rendered in this mode (a microbatch's first batch). */
export function rendersIncremental(mode: BuildMode): boolean {
  return mode.kind === 'incremental' || mode.kind === 'backfill' || (mode.kind === 'microbatch' && mode.incremental);
}
