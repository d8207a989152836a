import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import type { Project } from '../project/project.js';
import type { Target } from '../project/target.js';
import { attachTargetSchemas } from './target-schemas.js';
import { DEFAULT_BUSY_TIMEOUT_MS, type Connection } from './connection.js';
import { engine } from './current-engine.js';

/** A connection to the warehouse (the engine's Connection; the name the rest of the code uses). */
export type Warehouse = Connection;

export { DEFAULT_BUSY_TIMEOUT_MS };

export interface OpenWarehouseOptions {
  /** Milliseconds a writer waits for another process's lock before giving up (default DEFAULT_BUSY_TIMEOUT_MS). */
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
}

/**
 * Open (or create) the warehouse through the engine: the one way the tool
 * opens it. A read-only open needs the warehouse to exist; a failure is a
 * ProjectError saying which file and why.
 */
export function openWarehouse(path: string, options: OpenWarehouseOptions = {}): Warehouse {
  const readonly = options.readonly ?? false;
  const inMemory = engine.isInMemory(path);
  if (!readonly && !inMemory) mkdirSync(dirname(path), { recursive: true });
  try {
    return engine.open(path, { readonly, busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  } catch (err) {
    const explained = engine.explainOpenError?.(err, path);
    if (explained) throw new ProjectError(explained.message, { hint: explained.hint });
    const message = err instanceof Error ? err.message : String(err);
    if (readonly && !inMemory && !existsSync(path)) {
      throw new ProjectError(`warehouse ${path} does not exist yet`, { hint: 'run `mini-dbt seed` or `mini-dbt run` first' });
    }
    throw new ProjectError(`cannot open warehouse ${path}: ${message}`);
  }
}

/**
 * Open a project's warehouse: its database file (with the target's schemas attached), waiting for another
 * process's lock as long as the project says (`busy-timeout:` in
 * project.yml, or --busy-timeout, which the session puts on the project)
 * unless `busyTimeoutMs` is given. What every command opens it with.
 */
export function openProjectWarehouse(
  project: Pick<Project, 'databasePath' | 'busyTimeoutMs'> & { readonly target?: Target },
  options: OpenWarehouseOptions = {},
): Warehouse {
  const db = openWarehouse(project.databasePath, { readonly: options.readonly, busyTimeoutMs: options.busyTimeoutMs ?? project.busyTimeoutMs });
  if (project.target?.customSchemas) {
    try {
      attachTargetSchemas(db, project.target);
    } catch (err) {
      db.close();
      throw err;
    }
  }
  return db;
}

/** Whether an error says another connection holds the lock (the busy timeout ran out). */
export function isBusyError(err: unknown): boolean {
  return engine.isBusyError(err);
}
