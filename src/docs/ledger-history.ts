import type { Warehouse } from '../engine/open-warehouse.js';
import type { DocsLastRun, DocsPartition } from './docs-data.js';

const hasLedger = (db: Warehouse) =>
  ['_mini_dbt_node_runs', '_mini_dbt_partitions', '_mini_dbt_runs'].every((table) => db.hasTable(table));

/** A node's latest build from the run ledger (_mini_dbt_node_runs), or null. */
export function lastNodeRun(db: Warehouse | undefined, uniqueId: string): DocsLastRun | null {
  if (!db || !hasLedger(db)) return null;
  const row = db.prepare(`
    select status, mode, reason, completed_at, rows_deleted, rows_inserted, message, invocation_id
    from _mini_dbt_node_runs where unique_id = ? order by id desc limit 1`).get(uniqueId) as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    status: String(row.status), mode: String(row.mode), reason: row.reason === null ? null : String(row.reason), completedAt: String(row.completed_at),
    rowsDeleted: Number(row.rows_deleted), rowsInserted: Number(row.rows_inserted), message: row.message === null ? null : String(row.message),
    invocationId: String(row.invocation_id),
  };
}

/**
 * For each partition of a model, its latest write: when, in which mode,
 * why (the plan's reason and the command's --reason) and from which as-of
 * (_mini_dbt_partitions joined to the node run and the run).
 */
export function partitionWrites(db: Warehouse | undefined, model: string): DocsPartition[] {
  if (!db || !hasLedger(db)) return [];
  const rows = db.prepare(`
    with latest as (select partition, max(node_run_id) as node_run_id from _mini_dbt_partitions where model = ? group by partition)
    select l.partition, n.completed_at, n.mode, n.reason as plan_reason, r.reason as run_reason, r.command_line, p.as_of
    from latest l
    join _mini_dbt_partitions p on p.node_run_id = l.node_run_id and p.partition = l.partition
    join _mini_dbt_node_runs n on n.id = l.node_run_id
    left join _mini_dbt_runs r on r.invocation_id = n.invocation_id
    order by l.partition`).all(model) as Record<string, unknown>[];
  return rows.map((r) => ({
    partition: String(r.partition), writtenAt: String(r.completed_at), mode: String(r.mode),
    planReason: r.plan_reason === null ? null : String(r.plan_reason), runReason: r.run_reason === null ? null : String(r.run_reason),
    command: r.command_line === null ? null : String(r.command_line), asOf: r.as_of === null ? null : String(r.as_of),
  }));
}
