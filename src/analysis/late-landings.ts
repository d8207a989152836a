import type { SeedNode, SourceNode } from '../compile/manifest.js';
import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { hasTextAffinity } from '../engine/text-affinity.js';
import { addDays } from '../feed/iso-date.js';

/** Late rows (landed after their day) that a night's run was the first to see, for one day. */
export interface LateLanding {
  /** The first night whose as-of sees the rows (loaded_at <= night). */
  readonly night: string;
  /** The rows' day (the event time's day): the partition they belong to. */
  readonly partition: string;
  readonly rows: number;
}

/**
 * The late rows of a model's raw inputs (the seeds and sources declaring
 * event_time and loaded_at) that landed during a replay's nights, per night
 * and day: a row loaded at L is seen first by the night R with L <= R (as a
 * run's as-of compares), and is late when its day is before L's day. One
 * query a raw input, through its loaded-at index.
 */
export function lateLandings(db: Warehouse, sources: readonly (SeedNode | SourceNode)[], nights: readonly string[]): LateLanding[] {
  if (nights.length === 0) return [];
  const after = addDays(nights[0]!, -1);
  const last = nights[nights.length - 1]!;
  const counts = new Map<string, number>();
  for (const source of sources) {
    const eventTime = source.settings.eventTime;
    const loadedAt = source.settings.loadedAt;
    if (eventTime === undefined || loadedAt === undefined || relationKind(db, source.alias, source.schema) !== 'table') continue;
    const l = hasTextAffinity(db, source.alias, loadedAt, source.schema) ? quoteIdentifier(loadedAt) : dialect.castText(quoteIdentifier(loadedAt));
    const day = dialect.dayOrText(quoteIdentifier(eventTime));
    const rows = db.prepare(`
      select ${l} as loaded_at, ${day} as partition, count(*) as rows
      from ${qualifiedName(source.schema, source.alias)}
      where ${l} > @after and ${l} <= @last
      group by 1, 2`).all({ after, last }) as { loaded_at: string; partition: unknown; rows: number }[];
    for (const r of rows) {
      const partition = String(r.partition);
      const loaded = String(r.loaded_at);
      if (partition >= loaded.slice(0, 10)) continue;
      const night = firstNightSeeing(nights, loaded);
      if (night === undefined) continue;
      const key = `${night}\u0000${partition}`;
      counts.set(key, (counts.get(key) ?? 0) + Number(r.rows));
    }
  }
  return [...counts]
    .map(([key, rows]) => ({ night: key.slice(0, key.indexOf('\u0000')), partition: key.slice(key.indexOf('\u0000') + 1), rows }))
    .sort((a, b) => a.night.localeCompare(b.night) || a.partition.localeCompare(b.partition));
}

/** The first night (sorted ISO dates) with loaded <= night, as text compares. */
function firstNightSeeing(nights: readonly string[], loaded: string): string | undefined {
  let lo = 0;
  let hi = nights.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nights[mid]! >= loaded) hi = mid;
    else lo = mid + 1;
  }
  return nights[lo];
}
