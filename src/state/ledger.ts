import type { Warehouse } from '../engine/open-warehouse.js';
import { nowIso } from '../clock.js';
import { dialect } from '../engine/current-engine.js';
import type { NodeRunsTable, RunsTable } from './ledger-tables.js';
import { allRows, ledgerQueries as q } from './query-builder.js';
import { compiledInsert, compiledOnce } from './compiled-once.js';
import { currentRunOwner, type RunOwner } from './run-owner.js';

export interface StartRunOptions {
  readonly invocationId: string;
  readonly command: string;
  readonly commandLine: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly reason?: string;
  readonly asOf?: string;
  /** Default: this process. */
  readonly owner?: RunOwner;
}

/** Record that a command started; it stays 'running' if the process dies. */
export function startRun(db: Warehouse, options: StartRunOptions): void {
  const { sql, parameters } = compiledInsert('_mini_dbt_runs', {
    invocation_id: options.invocationId,
    command: options.command,
    command_line: options.commandLine,
    vars_json: JSON.stringify(options.vars),
    reason: options.reason ?? null,
    as_of: options.asOf ?? null,
    status: 'running',
    started_at: nowIso(),
    completed_at: null,
    ...(options.owner ?? currentRunOwner()),
  }, (row) => q.insertInto('_mini_dbt_runs').values(row));
  db.run(sql, ...parameters);
}

export function finishRun(db: Warehouse, invocationId: string, status: 'success' | 'error'): void {
  const completedAt = nowIso();
  const { sql, parameters } = compiledOnce('finish run', [status, completedAt, invocationId],
    () => q.updateTable('_mini_dbt_runs').set({ status, completed_at: completedAt }).where('invocation_id', '=', invocationId));
  db.run(sql, ...parameters);
}

export type NodeRunRecord = Omit<NodeRunsTable, 'id'>;

/**
 * Record one node's outcome and the partitions it rewrote. Call it inside the
 * publish transaction, so the ledger and the table can never disagree. The
 * rows are written deferred (a server engine posts them without waiting: the
 * COMMIT that follows reads their answers, and a failure rolls the publish
 * back); the partitions take the node run's id from the engine's last
 * inserted id, so nothing waits for it.
 */
export function recordNodeRun(db: Warehouse, record: NodeRunRecord, partitions: readonly string[] = []): void {
  const { sql, parameters } = compiledInsert('_mini_dbt_node_runs', record, (row) => q.insertInto('_mini_dbt_node_runs').values(row));
  db.runDeferred(sql, ...parameters);
  // Partitions go in batches of multi-row inserts (one statement each on a server engine).
  const BATCH = 500;
  const id = dialect.lastInsertedId('_mini_dbt_node_runs');
  for (let start = 0; start < partitions.length; start += BATCH) {
    const chunk = partitions.slice(start, start + BATCH);
    const rows = chunk.map(() => '(?)').join(', ');
    db.runDeferred(
      `insert into _mini_dbt_partitions (node_run_id, invocation_id, model, "partition", as_of) select run.id, ?, ?, written.column1, ? from (select ${id} as id) as run cross join (values ${rows}) as written`,
      record.invocation_id, record.model, record.as_of, ...chunk,
    );
  }
}

export type RunRow = RunsTable;
export type NodeRunRow = NodeRunsTable & { id: number };

export function latestRun(db: Warehouse): RunRow | undefined {
  return allRows(db, q.selectFrom('_mini_dbt_runs').selectAll().orderBy('started_at', 'desc').limit(1))[0];
}

export function runByInvocation(db: Warehouse, invocationId: string): RunRow | undefined {
  return allRows(db, q.selectFrom('_mini_dbt_runs').selectAll().where('invocation_id', '=', invocationId))[0];
}

export function nodeRunsOf(db: Warehouse, model: string): NodeRunRow[] {
  return allRows(db, q.selectFrom('_mini_dbt_node_runs').selectAll().where('model', '=', model).orderBy('id', 'asc')) as NodeRunRow[];
}
