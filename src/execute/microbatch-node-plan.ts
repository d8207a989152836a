import type { RelationKind } from '../db/relation-kind.js';
import { isIncrementalRun, renderModel } from '../compile/render-model.js';
import { relationColumns, relationKind } from '../db/relation-kind.js';
import { describeSelect } from '../db/describe-select.js';
import { parseTime, microbatchNow, type BatchSize } from '../config/microbatch-time.js';
import { microbatchWindows, retryWindows, type MicrobatchWindows } from '../plan/microbatch-windows.js';
import type { NodePlan } from '../plan/node-plan.js';
import { planMicrobatch } from '../plan/plan-microbatch.js';
import { builtBatches } from '../state/built-batches.js';
import { schemaOf, withRenderedHooks, type BuildNodePlanInput } from './plan-inputs.js';

function whyFull(existing: RelationKind | null, fullRefreshConfig: unknown): string {
  if (existing === null) return 'first build: the target does not exist yet';
  if (existing === 'view') return 'the existing relation is a view';
  return fullRefreshConfig === true ? 'config full_refresh: true' : '--full-refresh';
}

/**
 * A microbatch model's plan: choose the batches (flags, begin, lookback,
 * the ledger's never-built batches, or a retry's failed ones), render the
 * model once per batch with its refs filtered to the batch, and plan one
 * publish per batch.
 */
export function microbatchNodePlan(input: BuildNodePlanInput & { readonly runStartedAt: Date }): NodePlan {
  const { db, manifest, node } = input;
  const config = node.config;
  const existing = db ? relationKind(db, node.alias) : null;
  // A retry only rewrites its failed windows: never a full rebuild that would drop the batches that succeeded.
  const incremental = input.retryWindows && existing === 'table' ? true : isIncrementalRun(node, existing, input.fullRefresh);
  const size = config.batch_size as BatchSize;
  const windows: MicrobatchWindows = input.retryWindows
    ? { batches: retryWindows(input.retryWindows, size, (t) => parseTime(t, 'a retried batch bound')), gaps: [], source: 'the failed batches of the last invocation (retry)' }
    : microbatchWindows({
      batchSize: size,
      begin: parseTime(config.begin, `model '${node.name}': begin`),
      lookback: typeof config.lookback === 'number' ? config.lookback : 1,
      now: microbatchNow(manifest.vars.as_of, input.runStartedAt),
      eventTime: input.eventTime,
      incremental,
      built: db && incremental ? builtBatches(db, node.name) : undefined,
      model: node.name,
    });
  const rendered = windows.batches.map((batch, i) =>
    renderModel(manifest, node, {
      db,
      fullRefresh: input.fullRefresh,
      forceIncremental: incremental || i > 0,
      invocationId: input.invocationId,
      runStartedAt: input.runStartedAt,
      log: input.log,
      batch: { label: batch.label, start: batch.startText, end: batch.endText },
    }));
  const first = rendered[0];
  let sourceColumns: string[] | undefined;
  if (db && first && !incremental) {
    try {
      sourceColumns = describeSelect(db, first.sql).map((c) => c.name);
    } catch {
      sourceColumns = undefined; // upstream not built yet (compile): later batches insert select *
    }
  }
  return planMicrobatch({
    node: first ? withRenderedHooks(node, first.hooks) : node,
    incremental,
    reason: incremental ? 'is_incremental(): the target exists as a table' : whyFull(existing, config.full_refresh),
    batches: windows.batches.map((batch, i) => ({ batch, sql: rendered[i]!.sql })),
    source: windows.source,
    gaps: windows.gaps,
    targetColumns: db && existing === 'table' ? relationColumns(db, node.alias).map((c) => c.name) : [],
    schema: db && incremental && first ? schemaOf(db, node.alias, first.sql) : undefined,
    sourceColumns,
  });
}
