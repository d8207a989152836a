import type { Hook } from '../config/hook-config.js';
import type { Manifest, SeedNode } from '../compile/manifest.js';
import { operationRenderState } from '../compile/operation-render-state.js';
import { Relation } from '../compile/relation.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import type { RunContext } from '../invocation/run-context.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';
import { runSql } from './run-statements.js';

/** Runs a seed's pre-hooks or post-hooks that belong inside (`transaction: true`) or outside the load's transaction. */
export type SeedHookRunner = (db: Warehouse, which: 'pre' | 'post', inTransaction: boolean) => void;

/**
 * A seed's pre_hook / post_hook, run as dbt's run_hooks runs them: each
 * rendered right before it runs, in the dbt context, `this` the seed's
 * table, against the connection it runs on (a post-hook reads the rows just
 * loaded). The caller runs them around the load: `transaction: false` ones
 * outside the load's transaction, the others inside it. A hook may hold
 * several statements; one that renders to nothing runs nothing.
 */
export function seedHookRunner(manifest: Manifest, node: SeedNode, options: { readonly run: RunContext; readonly log: (message: string) => void }): SeedHookRunner {
  return (db, which, inTransaction) => {
    const hooks: readonly Hook[] = node.settings.hooks[which];
    hooks.forEach((hook, i) => {
      if (hook.transaction !== inTransaction) return;
      const sql = hook.sql.includes('{') ? renderSeedHook(manifest, node, `${which}_hook[${i}]`, hook.sql, db, options) : hook.sql;
      if (sql.trim() === '') return;
      // The project's SQL may read mini-dbt's own tables, never write them (E230).
      refuseReservedWrites(sql, `${which}_hook[${i}] of seed '${node.name}'`, { file: node.file.path });
      runSql(db, sql, true);
    });
  };
}

function renderSeedHook(manifest: Manifest, node: SeedNode, which: string, template: string, db: Warehouse, options: { readonly run: RunContext; readonly log: (message: string) => void }): string {
  const state = {
    ...operationRenderState(manifest, { name: `seed '${node.name}'`, path: node.file.path, db, run: options.run, log: options.log }),
    self: new Relation(node.alias, 'table', undefined, node.schema),
    config: { ...node.config },
  };
  try {
    return manifest.jinja.render(`${node.file.path}#${which}`, template, state).trim();
  } catch (err) {
    if (!(err instanceof ProjectError)) throw err;
    throw new ProjectError(`${err.message}\n  > in ${which} of seed '${node.name}', rendered as it ran`, { location: err.location.file ? err.location : { file: `${node.file.path}#${which}` }, hint: err.hint, exitCode: err.exitCode });
  }
}
