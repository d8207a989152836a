import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { RenderedModel } from '../compile/render-model.js';
import { describeSelect } from '../db/describe-select.js';
import type { Warehouse } from '../db/open-warehouse.js';
import { relationColumns } from '../db/relation-kind.js';
import { relationIndexes } from '../db/relation-indexes.js';
import type { GuardedRange } from '../materialize/range-guard.js';

export interface BuildNodePlanInput {
  /** The warehouse; without it (compile before any run) the target is taken as absent. */
  readonly db?: Warehouse;
  readonly manifest: Manifest;
  readonly node: ModelNode;
  readonly fullRefresh: boolean;
  /** A run given both `start` and `end` vars rewrites that range: a backfill. */
  readonly backfill: boolean;
  /** The backfill command's model: its partitions written must lie in start..end. */
  readonly rangeGuard?: GuardedRange;
  readonly invocationId?: string;
  readonly runStartedAt?: Date;
  readonly log?: (message: string) => void;
  /** --event-time-start/--event-time-end (microbatch models). */
  readonly eventTime?: { readonly start: Date; readonly end: Date };
  /** The model already rendered with these options (compile renders it for its own output); microbatch models ignore it. */
  readonly rendered?: RenderedModel;
  /** `retry`: exactly these batch windows of a microbatch model. */
  readonly retryWindows?: readonly { readonly start: string; readonly end: string }[];
}

/** The node with its hooks as rendered (templates in hooks see `this`, `var`, ...). */
export function withRenderedHooks(node: ModelNode, hooks: RenderedModel['hooks']): ModelNode {
  return { ...node, config: { ...node.config, pre_hook: hooks.pre_hook, post_hook: hooks.post_hook } };
}

/**
 * The target's columns and indexes and the new output's columns: what
 * on_schema_change compares. Undefined when the SELECT cannot be described
 * (an upstream is missing): the run then fails on that SQL at its stage
 * step, before writing anything, and compile still shows the plan.
 */
export function schemaOf(db: Warehouse, alias: string, sql: string) {
  let source;
  try {
    source = describeSelect(db, sql);
  } catch {
    return undefined;
  }
  return { target: relationColumns(db, alias), source, indexes: relationIndexes(db, alias) };
}
