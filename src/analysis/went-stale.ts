import type { SeedNode, SourceNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { daysBetween, isIsoDate } from '../feed/iso-date.js';
import { RESERVED_PREFIX } from '../project/reserved-names.js';
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

/** A day that went stale on a night, with the late rows the night's run reported (wentStale's input). */
export interface StaleDay {
  readonly partition: string;
  readonly night: string;
  readonly late: LateRowsNotApplied | undefined;
}

/**
 * Why each day went stale on its night: the late rows the night's
 * incremental run reported as not applied for it, each compared with the
 * previous version of its order (the version the table still counts). The
 * previous versions are read in one pass over each raw input for all the
 * days (a replay's raw rows do not change between its nights, so the days
 * can be explained after the last one): one scan instead of a look-up by id
 * per late row, which needs an index on the id column (building one on 1.2
 * million rows took longer than the scan).
 */
export function wentStale(db: Warehouse, sources: readonly (SeedNode | SourceNode)[], days: readonly StaleDay[]): WentStale[] {
  const versions = new VersionsById(db, sources);
  for (const { late, partition } of days) {
    for (const s of late?.sample ?? []) if (s.partition === partition && s.id_column !== null) versions.want(s.source, s.id_column, s.id);
  }
  return days.map(({ partition, night, late }) => {
    const rows = late?.partitions.find((p) => p.partition === partition)?.rows ?? 0;
    const causes = (late?.sample ?? []).filter((s) => s.partition === partition).map((s): StaleCause => {
      const days = isIsoDate(s.loaded_at.slice(0, 10)) && isIsoDate(partition) ? daysBetween(partition, s.loaded_at.slice(0, 10)) : null;
      const changes = s.id_column !== null ? versions.changes(s.source, s.id_column, s.id, s.loaded_at) : null;
      return { source: s.source, id_column: s.id_column, id: s.id, loaded_at: s.loaded_at, days_late: days, changes };
    });
    return { partition, night, window: late?.window ?? null, rows, causes };
  });
}

/** An id and its type: 1 and '1' are two ids. */
const idKey = (id: unknown): string => `${typeof id}:${String(id)}`;

/** The loaded-at of a version as text, read next to its columns (a reserved name: no table column has it). */
const LOADED = `${RESERVED_PREFIX}loaded_at`;

/** The versions of the wanted ids of each raw input, read in one query per input and id column. */
class VersionsById {
  private readonly wanted = new Map<string, { source: SeedNode | SourceNode; idColumn: string; ids: Set<unknown> }>();
  private readonly read = new Map<string, Map<unknown, Record<string, unknown>[]> | undefined>();

  constructor(private readonly db: Warehouse, private readonly sources: readonly (SeedNode | SourceNode)[]) {}

  want(sourceName: string, idColumn: string, id: unknown): void {
    const source = this.sources.find((n) => n.name === sourceName);
    if (source === undefined) return;
    const key = `${sourceName}\0${idColumn}`;
    let entry = this.wanted.get(key);
    if (entry === undefined) this.wanted.set(key, (entry = { source, idColumn, ids: new Set() }));
    entry.ids.add(id);
  }

  /** What the version of `id` that landed at `loadedAt` changed against the one before it (null: no version before, or the input is unknown). */
  changes(sourceName: string, idColumn: string, id: unknown, loadedAt: string): StaleCause['changes'] {
    const key = `${sourceName}\0${idColumn}`;
    const entry = this.wanted.get(key);
    if (entry === undefined) return null;
    if (!this.read.has(key)) this.read.set(key, this.readVersions(entry.source, entry.idColumn, [...entry.ids]));
    const byId = this.read.get(key);
    // Ids JSON cannot carry exactly: one look-up each, as the query below would do it.
    const all = byId === undefined ? this.versionsOf(entry.source, idColumn, id) : (byId.get(idKey(id)) ?? []);
    // Newest first among those landed by loadedAt (as `order by loaded desc limit 2`).
    const versions = all.filter((v) => String(v[LOADED]) <= loadedAt).sort((a, b) => (String(a[LOADED]) < String(b[LOADED]) ? 1 : String(a[LOADED]) > String(b[LOADED]) ? -1 : 0));
    if (versions.length < 2) return null;
    const [now, before] = versions as [Record<string, unknown>, Record<string, unknown>];
    const skip = new Set([entry.source.settings.loadedAt!.toLowerCase(), LOADED]);
    return Object.keys(now).filter((k) => !skip.has(k.toLowerCase()) && now[k] !== before[k]).map((column) => ({ column, from: before[column], to: now[column] }));
  }

  /**
   * Every version of the ids, by idKey; undefined when an id is not a text
   * or a safe integer (its text could name another value). The ids are
   * matched as text (one scan, on either engine), then kept only where the
   * value has the wanted id's type.
   */
  private readVersions(source: SeedNode | SourceNode, idColumn: string, ids: unknown[]): Map<string, Record<string, unknown>[]> | undefined {
    if (!ids.every((id) => typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
    const id = quoteIdentifier(idColumn);
    const idAlias = `${LOADED}_id`;
    const rows = this.db.prepare(`select *, ${dialect.castText(quoteIdentifier(source.settings.loadedAt!))} as ${quoteIdentifier(LOADED)}, ${id} as ${quoteIdentifier(idAlias)}
      from ${qualifiedName(source.schema, source.alias)} where ${dialect.castText(id)} in (select listed.value from ${dialect.jsonTexts('?', 'listed')})`).all(JSON.stringify(ids.map(String))) as Record<string, unknown>[];
    const byId = new Map<string, Record<string, unknown>[]>();
    for (const row of rows) {
      const key = idKey(row[idAlias]);
      delete row[idAlias];
      const list = byId.get(key);
      if (list) list.push(row);
      else byId.set(key, [row]);
    }
    return byId;
  }

  private versionsOf(source: SeedNode | SourceNode, idColumn: string, id: unknown): Record<string, unknown>[] {
    return this.db.prepare(`select *, ${dialect.castText(quoteIdentifier(source.settings.loadedAt!))} as ${quoteIdentifier(LOADED)} from ${qualifiedName(source.schema, source.alias)} where ${quoteIdentifier(idColumn)} = ?`).all(id) as Record<string, unknown>[];
  }
}
