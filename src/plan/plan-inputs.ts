import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { RenderedModel } from '../compile/render-model.js';
import { runtimeHooks } from '../compile/render-model-hook.js';
import type { RunContext } from '../invocation/run-context.js';
import type { WarehouseFacts } from './warehouse-facts.js';

export interface PlanNodeInput {
  readonly manifest: Manifest;
  readonly node: ModelNode;
  /** The warehouse as planning sees it; without it (compile before any run) every target is taken as absent. */
  readonly facts?: WarehouseFacts;
  readonly context: RunContext;
  /** Where templates' log() calls go. */
  readonly log?: (message: string) => void;
  /** Where templates' debug-level log() calls go. */
  readonly debug?: (message: string) => void;
  /** Where templates' print() calls go. */
  readonly print?: (text: string) => void;
  /** dbt's `graph` variable for the model's render, built when a template asks. */
  readonly graph?: () => unknown;
  /** The model already rendered both ways (compile shows both): the plan takes the one its mode needs; microbatch models ignore them. */
  readonly renderings?: { readonly full: RenderedModel; readonly incremental?: RenderedModel };
}

/** The node with its hook templates named, for the executor to render each when it runs (runtimeHooks). */
export function withRuntimeHooks(node: ModelNode): ModelNode {
  return { ...node, settings: { ...node.settings, hooks: runtimeHooks(node) } };
}

/**
 * The target's columns and indexes and the new output's columns: what
 * on_schema_change compares. Undefined when the SELECT cannot be described
 * (an upstream is missing): the run then fails on that SQL at its stage
 * step, before writing anything, and compile still shows the plan.
 */
export function schemaOf(facts: WarehouseFacts, node: { readonly alias: string; readonly schema: string }, sql: string) {
  const source = facts.selectColumns(sql);
  if (source === undefined) return undefined;
  const target = facts.columns(node.alias, node.schema);
  // The indexes matter only for dropping a column the output no longer has: not read when every column is still there.
  const kept = target.every((t) => source.some((c) => c.name === t.name));
  return { target, source, indexes: kept ? [] : facts.indexes(node.alias, node.schema) };
}
