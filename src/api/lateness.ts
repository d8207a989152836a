import { warehouseExists } from '../engine/warehouse-exists.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import { findSeedOrSource } from '../analysis/find-node.js';
import { latenessReport, type LatenessReport, type LatenessUnit } from '../analysis/lateness-report.js';
import { timeColumns } from '../analysis/time-columns.js';
import { requireWholeDays } from '../analysis/require-whole-days.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

export interface LatenessOptions extends SessionOptions {
  /** A seed, or a source as 'source.table' (or its table name). */
  readonly name: string;
  /** Default: the project's lookback_days var (lookback_hours with unit 'hour'; 0 when it has none). */
  readonly lookback?: number;
  /** Lateness in days (the default) or hours (hourly partitions). */
  readonly unit?: LatenessUnit;
  /** Break the missed rows down by this column. */
  readonly by?: string;
  /** Override the yml's event_time / loaded_at. */
  readonly eventTime?: string;
  readonly loadedAt?: string;
  readonly session?: Session;
}

/** How late the raw rows of a seed or source land, and what a lookback misses. */
export function lateness(options: LatenessOptions): LatenessReport & { name: string } {
  const session = options.session ?? loadSession(options);
  const node = findSeedOrSource(session.manifest, options.name);
  const columns = timeColumns(node, { eventTime: options.eventTime, loadedAt: options.loadedAt });
  const unit = options.unit ?? 'day';
  const declared = unit === 'hour' ? 'lookback_hours' : 'lookback_days';
  const lookback = options.lookback ?? (session.manifest.vars[declared] == null ? 0 : requireWholeDays(session.manifest.vars[declared], `var '${declared}'`));
  const path = session.project.databasePath;
  if (!warehouseExists(path)) throw new ProjectError(`warehouse ${path} does not exist yet`, { hint: 'load the raw rows first: mini-dbt seed' });
  const db = openProjectWarehouse(session.project, { readonly: true });
  try {
    return { name: node.name, ...latenessReport(db, { relation: node.alias, schema: node.schema, columns, lookback, by: options.by, unit }) };
  } finally {
    db.close();
  }
}

