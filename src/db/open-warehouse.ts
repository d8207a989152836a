import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ProjectError } from '../errors/project-error.js';

export type Warehouse = Database.Database;

/** The busy timeout used when neither the project nor the command line sets one. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface OpenWarehouseOptions {
  /** Milliseconds a writer waits for another process's lock before giving up. */
  readonly busyTimeoutMs?: number;
  readonly readonly?: boolean;
}

/**
 * Open (or create) the SQLite warehouse file in WAL mode so readers keep
 * working while a run writes.
 */
export function openWarehouse(path: string, options: OpenWarehouseOptions = {}): Warehouse {
  if (!options.readonly) mkdirSync(dirname(path), { recursive: true });
  let db: Warehouse;
  try {
    db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = OFF');
    // Touch the schema so a file that is not a database fails here, clearly.
    db.prepare('select count(*) from sqlite_master').get();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (!existsSync(path) && options.readonly) {
      throw new ProjectError(`warehouse ${path} does not exist yet`, { hint: 'run `mini-dbt seed` or `mini-dbt run` first' });
    }
    throw new ProjectError(`cannot open warehouse ${path}: ${message}`);
  }
  return db;
}
