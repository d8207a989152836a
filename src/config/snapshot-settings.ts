import { ProjectError } from '../errors/project-error.js';
import type { SourceLocation } from '../project/project.js';
import { grantsConfigProblem } from './grants-config.js';

export type HardDeletes = 'ignore' | 'invalidate' | 'new_record';

/** The meta columns' names (snapshot_meta_column_names overrides them one by one). */
export interface SnapshotColumnNames {
  readonly dbt_scd_id: string;
  readonly dbt_updated_at: string;
  readonly dbt_valid_from: string;
  readonly dbt_valid_to: string;
  readonly dbt_is_deleted: string;
}

/** A snapshot's config, parsed once at load (dbt's snapshot configs). */
export interface SnapshotSettings {
  readonly uniqueKey: readonly string[];
  readonly strategy: 'timestamp' | 'check';
  readonly updatedAt?: string;
  /** check strategy: the columns compared, or every column of the query. */
  readonly checkCols?: readonly string[] | 'all';
  readonly hardDeletes: HardDeletes;
  readonly columns: SnapshotColumnNames;
  /** dbt_valid_to_current: the SQL expression current rows carry in dbt_valid_to instead of NULL. */
  readonly validToCurrent?: string;
}

const HARD_DELETES: readonly HardDeletes[] = ['ignore', 'invalidate', 'new_record'];
const DEFAULT_COLUMNS: SnapshotColumnNames = { dbt_scd_id: 'dbt_scd_id', dbt_updated_at: 'dbt_updated_at', dbt_valid_from: 'dbt_valid_from', dbt_valid_to: 'dbt_valid_to', dbt_is_deleted: 'dbt_is_deleted' };

/** Parse and check a snapshot's config; a problem is a ProjectError at the snapshot's file and line (exit 2). */
export function parseSnapshotSettings(name: string, config: Readonly<Record<string, unknown>>, location: SourceLocation): SnapshotSettings {
  const fail = (message: string, hint: string): never => {
    throw new ProjectError(`snapshot '${name}': ${message}`, { location, hint });
  };
  const grants = grantsConfigProblem(config.grants);
  if (grants) fail(grants, 'grants maps each privilege to a grantee or a list of grantees: {select: [reporter]}');
  const rawKey = config.unique_key;
  const uniqueKey = Array.isArray(rawKey) ? rawKey.map(String) : typeof rawKey === 'string' && rawKey.trim() !== '' ? [rawKey] : [];
  if (uniqueKey.length === 0) fail('unique_key is required', "add unique_key='id' (a column, or a list of columns) to its config");
  const strategy = config.strategy;
  if (strategy !== 'timestamp' && strategy !== 'check') {
    fail(`strategy must be 'timestamp' or 'check', got ${strategy === undefined ? 'none' : JSON.stringify(strategy)}`, "strategy='timestamp' with updated_at='<column>', or strategy='check' with check_cols=[...] or 'all'");
  }
  const updatedAt = typeof config.updated_at === 'string' && config.updated_at !== '' ? config.updated_at : undefined;
  if (strategy === 'timestamp' && !updatedAt) fail("strategy 'timestamp' needs updated_at", "add updated_at='<column>' (the column that says when a row last changed)");
  let checkCols: readonly string[] | 'all' | undefined;
  if (strategy === 'check') {
    const raw = config.check_cols;
    if (raw === 'all') checkCols = 'all';
    else if (Array.isArray(raw) && raw.length > 0) checkCols = raw.map(String);
    else fail("strategy 'check' needs check_cols: a list of columns or 'all'", "add check_cols=['status'] or check_cols='all'");
  }
  let hardDeletes: HardDeletes = config.invalidate_hard_deletes === true ? 'invalidate' : 'ignore';
  if (config.hard_deletes !== undefined && config.hard_deletes !== null) {
    if (!HARD_DELETES.includes(config.hard_deletes as HardDeletes)) fail(`hard_deletes must be one of ${HARD_DELETES.join(', ')}, got ${JSON.stringify(config.hard_deletes)}`, 'ignore keeps deleted keys current; invalidate closes them; new_record adds a dbt_is_deleted row');
    hardDeletes = config.hard_deletes as HardDeletes;
  }
  const meta = (config.snapshot_meta_column_names ?? {}) as Record<string, unknown>;
  const columns = { ...DEFAULT_COLUMNS };
  for (const [key, value] of Object.entries(meta)) {
    if (!(key in DEFAULT_COLUMNS) || typeof value !== 'string' || value === '') fail(`snapshot_meta_column_names: unknown key or empty name '${key}'`, `its keys: ${Object.keys(DEFAULT_COLUMNS).join(', ')}`);
    columns[key as keyof SnapshotColumnNames] = value as string;
  }
  const validToCurrent = config.dbt_valid_to_current === undefined || config.dbt_valid_to_current === null ? undefined : String(config.dbt_valid_to_current);
  return { uniqueKey, strategy: strategy as 'timestamp' | 'check', updatedAt, checkCols, hardDeletes, columns, validToCurrent };
}
