import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import type { RunsTable } from './ledger-tables.js';
import { isRunOwnerAlive, type RunOwner } from './run-owner.js';

/** Whether an error is the engine saying another connection holds the lock. */
export { isBusyError } from '../engine/open-warehouse.js';

/**
 * A clear error for a busy warehouse, naming the mini-dbt command that holds
 * the lock when the ledger shows one running (readers still work in WAL mode).
 */
export function warehouseLocked(db: Warehouse, path: string, busyTimeoutMs: number, ownInvocation?: string): ProjectError {
  let holder = 'another process';
  try {
    // select *: a ledger not yet migrated to version 2 has no pid, and then no row is named.
    const rows = db
      .prepare("select * from _mini_dbt_runs where status = 'running' and invocation_id != ? order by started_at desc limit 20")
      .all(ownInvocation ?? '') as (RunsTable & Partial<RunOwner>)[];
    // A 'running' row is named only when its process is alive: a crashed run leaves one behind forever.
    const row = rows.find((r) => isRunOwnerAlive({ pid: r.pid ?? null, host: r.host ?? null, process_start: r.process_start ?? null }));
    if (row) holder = `\`${row.command_line}\` (invocation ${row.invocation_id}, started ${row.started_at}, pid ${row.pid})`;
  } catch {
    // The ledger may not exist yet; keep the generic wording.
  }
  return new ProjectError(`the warehouse ${path} is locked by ${holder}; gave up after waiting ${busyTimeoutMs} ms`, {
    hint: 'wait for it to finish, or wait longer with --busy-timeout MS (or busy-timeout: in project.yml)',
  });
}
