import { engine } from '../engine/current-engine.js';
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

/** The mini-dbt command a run row names, when its process is alive: `mini-dbt run -s x` (invocation ..., started ..., pid ...). */
function describeRun(row: RunsTable & Partial<RunOwner>): string {
  return `\`${row.command_line}\` (invocation ${row.invocation_id}, started ${row.started_at}, pid ${row.pid})`;
}

/** Other runs the ledger shows running whose process is alive (or, on another host, cannot be checked). */
function runningRuns(db: Warehouse, ownInvocation: string): (RunsTable & Partial<RunOwner>)[] {
  try {
    const rows = db
      .prepare("select * from _mini_dbt_runs where status = 'running' and invocation_id != ? order by started_at desc limit 20")
      .all(ownInvocation) as (RunsTable & Partial<RunOwner>)[];
    return rows.filter((r) => isRunOwnerAlive({ pid: r.pid ?? null, host: r.host ?? null, process_start: r.process_start ?? null }));
  } catch {
    return [];
  }
}

/**
 * E174: a relation another run is publishing (engines with relation locks,
 * engine.ts): names that run from the ledger when its session is tagged
 * with its invocation, else the server session holding the lock.
 */
export function relationLocked(db: Warehouse, relation: string, busyTimeoutMs: number): ProjectError {
  let holder = 'another session';
  try {
    const locks = engine.relationLocks;
    const session = locks?.holders(db, relation)[0];
    if (locks && session) {
      const invocation = locks.invocationOf(session);
      const row = invocation === undefined
        ? undefined
        : (db.prepare('select * from _mini_dbt_runs where invocation_id = ?').get(invocation) as (RunsTable & Partial<RunOwner>) | undefined);
      const server = `server session ${session.backendPid}, user ${session.user}, from ${session.client}${session.since ? `, in a transaction since ${session.since}` : ''}`;
      holder = row ? `${describeRun(row)} [${server}]` : `${session.applicationName ? `\`${session.applicationName}\` ` : ''}[${server}]`;
    }
  } catch {
    // Whoever it was may be gone by now: keep the generic wording.
  }
  return new ProjectError(`${relation} is being published by ${holder}; gave up waiting for it after ${busyTimeoutMs} ms`, {
    hint: 'one run at a time publishes a relation: run this node again when that run is done, or wait longer with --busy-timeout MS (or busy-timeout: in project.yml)',
    exitCode: 1,
  });
}

/**
 * E175: a lock the node's statements waited for (a table another run is
 * rewriting, say) was not had within the busy timeout, on an engine whose
 * writers work side by side: that node fails; the runs writing are named.
 */
export function lockWaitTimedOut(db: Warehouse, busyTimeoutMs: number, ownInvocation: string, serverMessage: string): ProjectError {
  const others = runningRuns(db, ownInvocation);
  const holder = others.length > 0 ? others.map(describeRun).join('; ') : 'another session';
  return new ProjectError(`waited ${busyTimeoutMs} ms for a lock held by ${holder}, then gave up (${serverMessage})`, {
    hint: 'run this node again when that run is done, or wait longer with --busy-timeout MS (or busy-timeout: in project.yml)',
    exitCode: 1,
  });
}
