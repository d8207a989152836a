import type { Hook } from '../config/hook-config.js';
import type { ModelHooks } from '../config/model-settings.js';
import type { Manifest, SeedNode } from '../compile/manifest.js';
import { operationRenderState } from '../compile/operation-render-state.js';
import { Relation } from '../compile/relation.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import type { RunContext } from '../invocation/run-context.js';
import { runSql } from './run-statements.js';

/**
 * A seed's pre_hook / post_hook, rendered as dbt renders them: in the dbt
 * context, `this` the seed's table. The caller runs them around the load:
 * `transaction: false` ones outside the load's transaction, the others inside it.
 */
export function renderSeedHooks(manifest: Manifest, node: SeedNode, options: { readonly db: Warehouse; readonly run: RunContext; readonly log: (message: string) => void }): ModelHooks {
  const { pre, post } = node.settings.hooks;
  if (pre.length === 0 && post.length === 0) return node.settings.hooks;
  const state = {
    ...operationRenderState(manifest, { name: `seed '${node.name}'`, path: node.file.path, db: options.db, run: options.run, log: options.log }),
    self: new Relation(node.alias, 'table', undefined, node.schema),
    config: { ...node.config },
  };
  const render = (which: string) => (h: Hook, i: number): Hook => ({
    sql: h.sql.includes('{') ? manifest.jinja.render(`${node.file.path}#${which}[${i}]`, h.sql, state).trim() : h.sql,
    transaction: h.transaction,
  });
  return { pre: pre.map(render('pre_hook')), post: post.map(render('post_hook')) };
}

/** Run the hooks that belong inside (`transaction: true`) or outside the load's transaction; a hook may hold several statements. */
export function runSeedHooks(db: Warehouse, hooks: readonly Hook[], inTransaction: boolean): void {
  for (const hook of hooks) {
    if (hook.transaction === inTransaction && hook.sql.trim() !== '') runSql(db, hook.sql, true);
  }
}
