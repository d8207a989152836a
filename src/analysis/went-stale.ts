import type { SeedNode, SourceNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { daysBetween, isIsoDate } from '../feed/iso-date.js';
import type { LateRowsNotApplied } from '../state/node-result.js';

/** A late row that made a day stale: which order, how late, and what it changed. */
export interface StaleCause {
  readonly source: string;
  readonly id_column: string | null;
  readonly id: unknown;
  readonly loaded_at: string;
  readonly days_late: number | null;
  /** The columns this version changed against the order's previous one; null when it is the order's first version. */
  readonly changes: readonly { readonly column: string; readonly from: unknown; readonly to: unknown }[] | null;
}

/** The night a day went stale, and why: the rows that landed for it that night, outside the run's window. */
export interface WentStale {
  readonly partition: string;
  readonly night: string;
  /** The window the night's run rewrote; null when it wrote nothing. */
  readonly window: readonly [string, string] | null;
  /** Rows for the day that landed that night and were not applied (0: no late row explains it). */
  readonly rows: number;
  /** Up to 5 of them. */
  readonly causes: readonly StaleCause[];
}

/**
 * Why `partition` went stale on `night`: the late rows the night's
 * incremental run reported as not applied for it, each compared with the
 * previous version of its order (the version the table still counts).
 */
export function wentStale(db: Warehouse, sources: readonly (SeedNode | SourceNode)[], partition: string, night: string, late: LateRowsNotApplied | undefined): WentStale {
  const rows = late?.partitions.find((p) => p.partition === partition)?.rows ?? 0;
  const causes = (late?.sample ?? []).filter((s) => s.partition === partition).map((s): StaleCause => {
    const source = sources.find((n) => n.name === s.source);
    const days = isIsoDate(s.loaded_at.slice(0, 10)) && isIsoDate(partition) ? daysBetween(partition, s.loaded_at.slice(0, 10)) : null;
    const changes = source && s.id_column !== null ? versionChanges(db, source, s.id_column, s.id, s.loaded_at) : null;
    return { source: s.source, id_column: s.id_column, id: s.id, loaded_at: s.loaded_at, days_late: days, changes };
  });
  return { partition, night, window: late?.window ?? null, rows, causes };
}

/** What the version of `id` that landed at `loadedAt` changed against the one before it (null: no version before). */
function versionChanges(db: Warehouse, source: SeedNode | SourceNode, idColumn: string, id: unknown, loadedAt: string): StaleCause['changes'] {
  const table = qualifiedName(source.schema, source.alias);
  const l = dialect.castText(quoteIdentifier(source.settings.loadedAt!));
  const versions = db.prepare(`select * from ${table} where ${quoteIdentifier(idColumn)} = ? and ${l} <= ? order by ${l} desc limit 2`).all(id, loadedAt) as Record<string, unknown>[];
  if (versions.length < 2) return null;
  const [now, before] = versions as [Record<string, unknown>, Record<string, unknown>];
  const skip = new Set([source.settings.loadedAt!.toLowerCase()]);
  return Object.keys(now).filter((k) => !skip.has(k.toLowerCase()) && now[k] !== before[k]).map((column) => ({ column, from: before[column], to: now[column] }));
}
