import { engine } from '../engine/current-engine.js';
import { DEFAULT_BUSY_TIMEOUT_MS, isBusyError, type Warehouse } from '../engine/open-warehouse.js';
import type { Project } from '../project/project.js';
import { lockWaitTimedOut, relationLocked } from '../state/warehouse-locked.js';

/**
 * Run `fn` (a node's publish) holding the lock on `relation`, on an engine
 * whose writers work side by side (engine.ts `relationLocks`): two runs
 * never publish the same relation at once, runs on different relations do
 * not wait for each other. A lock not had within the busy timeout is E174,
 * naming the run that holds it. Elsewhere (SQLite: one writer holds the
 * whole warehouse) `fn` just runs. An asynchronous `fn` keeps the lock
 * until it settles.
 */
export function withRelationLock<T>(db: Warehouse, relation: string, fn: () => T, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): T {
  const locks = engine.relationLocks;
  if (!locks) return fn();
  try {
    locks.acquire(db, relation);
  } catch (err) {
    if (isBusyError(err)) throw relationLocked(db, relation, busyTimeoutMs);
    throw err;
  }
  const release = (): void => {
    try {
      locks.release(db, relation);
    } catch {
      // A broken connection lets its locks go with it.
    }
  };
  let result: T;
  try {
    result = fn();
  } catch (err) {
    release();
    throw err;
  }
  if (result instanceof Promise) return result.finally(release) as T;
  release();
  return result;
}

/** How long a project's connections wait for a lock. */
export function busyTimeoutOf(project: Pick<Project, 'busyTimeoutMs'>): number {
  return project.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
}

/**
 * A node's failure, as its result tells it. The engine's busy error on a
 * single-writer warehouse is thrown on (another process holds the whole
 * warehouse: the command stops, as it always has on SQLite); where writers
 * work side by side it is that node's failure (E175), naming the runs that
 * were writing.
 */
export function nodeFailure(db: Warehouse, err: unknown, busyTimeoutMs: number, invocationId: string): unknown {
  if (!isBusyError(err)) return err;
  if (!engine.relationLocks) throw err;
  return lockWaitTimedOut(db, busyTimeoutMs, invocationId, err instanceof Error ? err.message : String(err));
}
