import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { migrateLedger } from '../state/migrate-ledger.js';
import type { Session, SessionOptions } from './session.js';

/**
 * Open the project's warehouse with the ledger tables migrated. Kept out of
 * session.ts so commands that only load the project (ls, compile) do not load
 * SQLite and the ledger's query builder at start-up.
 */
export function openSessionWarehouse(session: Session, options: SessionOptions): Warehouse {
  const db = openProjectWarehouse(session.project, { busyTimeoutMs: options.busyTimeoutMs });
  migrateLedger(db);
  return db;
}
