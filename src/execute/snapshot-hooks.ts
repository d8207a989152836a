import { configHooks, type Hook } from '../config/hook-config.js';
import type { Manifest, ModelNode, SnapshotNode } from '../compile/manifest.js';
import { renderModelHook } from '../compile/render-model-hook.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';
import { ProjectError } from '../errors/project-error.js';
import type { RunContext } from '../invocation/run-context.js';
import { runSql } from './run-statements.js';

/** Runs a snapshot's pre-hooks or post-hooks that belong inside (`transaction: true`) or outside its transaction. */
export type SnapshotHookRunner = (db: Warehouse, which: 'pre' | 'post', inTransaction: boolean) => void;

/**
 * A snapshot's pre_hook / post_hook, run as dbt's snapshot materialization
 * runs them (run_hooks, as the table materialization does): pre-hooks with
 * `transaction: false` before its transaction, the others first inside it;
 * post-hooks after the snapshot table is built or merged, inside the
 * transaction, then the `transaction: false` ones after the commit. Each is
 * rendered right before it runs, in the context the snapshot's query saw
 * (`this` the snapshot table, as it stands then: a post-hook reads the rows
 * just written), on the live connection. A hook may hold several statements;
 * one that renders to nothing runs nothing.
 */
export function snapshotHookRunner(
  manifest: Manifest,
  node: SnapshotNode,
  asModel: ModelNode,
  options: { readonly run: RunContext; readonly log: (message: string) => void },
): SnapshotHookRunner {
  const hooks = { pre: configHooks(node.config, 'pre_hook'), post: configHooks(node.config, 'post_hook') };
  const render = (db: Warehouse, template: string, name: string): string => {
    try {
      return renderModelHook(manifest, asModel, { sql: template, template: `${node.file.path}#${name}` }, { db, incremental: false, run: options.run, log: options.log });
    } catch (err) {
      if (!(err instanceof ProjectError)) throw err;
      // renderModelHook names a model: this one is a snapshot.
      throw new ProjectError(err.message.replace(`of model '${node.name}', rendered as it ran`, `of snapshot '${node.name}', rendered as it ran`), { location: err.location, hint: err.hint, exitCode: err.exitCode });
    }
  };
  return (db, which, inTransaction) => {
    const list: readonly Hook[] = hooks[which];
    list.forEach((hook, i) => {
      if (hook.transaction !== inTransaction) return;
      const name = `${which}_hook[${i}]`;
      const sql = hook.sql.includes('{') ? render(db, hook.sql, name) : hook.sql;
      if (sql.trim() === '') return;
      // The project's SQL may read mini-dbt's own tables, never write them (E230).
      refuseReservedWrites(sql, `${name} of snapshot '${node.name}'`, { file: node.file.path });
      runSql(db, sql, true);
    });
  };
}
