/**
 * How many raw rows a backfill of a range reads, against a full reload: the
 * cost figure the backfill report prints. Counted through the raw table's
 * indexes when it has them (the example's raw_orders is indexed on its
 * event date and on its loaded-at date), so the report costs a few index
 * seeks, not two scans of the history.
 */
import type { Manifest, ModelNode } from '../compile/manifest.js';
import { columnLeadsIndex } from '../engine/column-leads-index.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { relationKind } from '../engine/relation-kind.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import { addDays } from '../feed/iso-date.js';
import type { Graph } from '../graph/graph-node.js';
import type { PartitionRange } from './minimal-ranges.js';

export interface RawReadCounts {
  /** Raw rows with an event date in the range, landed by the as-of: what the backfill reads. */
  readonly rawRows: number;
  /** Raw rows landed by the as-of: what a full reload reads. */
  readonly fullReloadRawRows: number;
}

export function rawReadCounts(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, range: PartitionRange, asOf: string | null): RawReadCounts {
  let rawRows = 0;
  let fullReloadRawRows = 0;
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    const { eventTime, loadedAt } = source.settings;
    if (relationKind(db, source.alias, source.schema) === null || eventTime === undefined || loadedAt === undefined) continue;
    rawRows += rawRowsInRange(db, source.alias, eventTime, loadedAt, range, asOf, source.schema);
    fullReloadRawRows += rawRowsLanded(db, source.alias, loadedAt, asOf, source.schema);
  }
  return { rawRows, fullReloadRawRows };
}

/**
 * Rows whose event date (a timestamp counts by its date) is in the range.
 * The exact test is an expression no index serves, so it is ANDed with
 * ranges an index on the event column can seek: ISO text within a day of
 * the range (a time zone offset moves the date by less than that), every
 * number (numbers sort before text) and every blob (after text). Event
 * times kept as text are taken to be ISO-8601: a text that date() would
 * read as a Julian day number ('2461287.5') is not counted.
 */
export function rawRowsInRange(db: Warehouse, alias: string, eventTime: string, loadedAt: string, range: PartitionRange, asOf: string | null, schema = 'main'): number {
  const table = qualifiedName(schema, alias);
  const event = quoteIdentifier(eventTime);
  const loaded = quoteIdentifier(loadedAt);
  const day = dialect.dayOrText(event);
  const seekable = `(${event} >= @lo and ${event} < @hi or ${dialect.nonText(event)})`;
  const landed = asOf === null ? '' : ` and cast(${loaded} as text) <= @asOf`;
  const params = { lo: addDays(range.start, -1), hi: addDays(range.end, 2), start: range.start, end: range.end, ...(asOf === null ? {} : { asOf }) };
  return Number(db.value(`select count(*) from ${table} where ${seekable} and ${day} between @start and @end${landed}`, params));
}

/**
 * Rows landed by the as-of. With an index on loaded_at: all rows, less the
 * NULLs and the rows landed after (both seeks); without one, a single scan.
 */
export function rawRowsLanded(db: Warehouse, alias: string, loadedAt: string, asOf: string | null, schema = 'main'): number {
  const table = qualifiedName(schema, alias);
  const loaded = quoteIdentifier(loadedAt);
  const count = (sql: string, params: object = {}) => Number(db.value(sql, params));
  if (asOf === null) return count(`select count(*) from ${table}`);
  if (!columnLeadsIndex(db, alias, loadedAt, schema)) return count(`select count(*) from ${table} where cast(${loaded} as text) <= @asOf`, { asOf });
  const later = count(`select count(*) from ${table} where (${loaded} > @asOf or ${dialect.nonText(loaded)}) and cast(${loaded} as text) > @asOf`, { asOf });
  return count(`select count(*) from ${table}`) - count(`select count(*) from ${table} where ${loaded} is null`) - later;
}
