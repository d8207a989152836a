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
import { addDays, isIsoDate } from '../feed/iso-date.js';
import { isIsoMonth, nextIsoMonth } from '../feed/iso-month.js';
import { hasTimeOfDay, nextWholeHour } from '../feed/iso-hour.js';
import type { Graph } from '../graph/graph-node.js';
import type { PartitionRange } from './minimal-ranges.js';

export interface RawReadCounts {
  /** Raw rows with an event date in the range, landed by the as-of: what the backfill reads. */
  readonly rawRows: number;
  /** Raw rows landed by the as-of: what a full reload reads. */
  readonly fullReloadRawRows: number;
}

export function rawReadCounts(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, range: PartitionRange, asOf: string | null): RawReadCounts {
  // Partitions that are no dates, hours or months (a store id, a region): which raw rows they read is the model's own
  // business, so nothing is counted (the report then reads like one with no dated raw input).
  if (!countable(range.start) || !countable(range.end)) return { rawRows: 0, fullReloadRawRows: 0 };
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

const countable = (bound: string): boolean => isIsoDate(bound) || isIsoMonth(bound) || hasTimeOfDay(bound);

/**
 * Rows whose event date (a timestamp counts by its date) is in the range.
 * The exact test is an expression no index serves, so it is ANDed with
 * ranges an index on the event column can seek: ISO text from four days
 * before the range to a day after it (a time and its offset move the date
 * by at most a day either way, and a day its month lacks moves it up to
 * three days on: '2026-02-31 24:00-14:59' is March 4th), every number
 * (numbers sort before text) and every blob (after text). Event
 * times kept as text are taken to be ISO-8601: a text that date() would
 * read as a Julian day number ('2461287.5') is not counted.
 *
 * Most of a long range needs no exact test at all (computing each row's
 * date is most of the count's time): see interiorBlocks. Those blocks are
 * counted by the index alone, and the exact test runs on the rest of the
 * seek (the range's edges, the gaps between years, non-text values).
 */
export function rawRowsInRange(db: Warehouse, alias: string, eventTime: string, loadedAt: string, range: PartitionRange, asOf: string | null, schema = 'main'): number {
  if (hasTimeOfDay(range.start) || hasTimeOfDay(range.end)) return rawRowsInTimeRange(db, alias, eventTime, loadedAt, range, asOf, schema);
  if (isIsoMonth(range.start) && isIsoMonth(range.end)) {
    // A range of months reads their days: from the first month's first day to the day before the month after the last.
    return rawRowsInTimeRange(db, alias, eventTime, loadedAt, { start: `${range.start}-01`, end: `${nextIsoMonth(range.end)!}-01` }, asOf, schema, { endExcluded: true });
  }
  const table = qualifiedName(schema, alias);
  const event = quoteIdentifier(eventTime);
  const loaded = quoteIdentifier(loadedAt);
  const day = dialect.dayOrText(event);
  const landed = asOf === null ? '' : ` and cast(${loaded} as text) <= @asOf`;
  const bounds = [addDays(range.start, -4), ...interiorBlocks(range).flat(), addDays(range.end, 2)];
  const params: Record<string, string> = { start: range.start, end: range.end, ...(asOf === null ? {} : { asOf }) };
  bounds.forEach((b, i) => (params[`b${i}`] = b));
  // bounds pair up as [b0, b1) [b2, b3) ...: the seek ranges that take the exact test; [b1, b2) [b3, b4) ...: the blocks.
  const ranges = (first: number) => bounds.flatMap((_, i) => (i % 2 === first && i + 1 < bounds.length ? [`${event} >= @b${i} and ${event} < @b${i + 1}`] : []));
  const exact = `select count(*) from ${table} where (${[...ranges(0), dialect.nonText(event)].join(' or ')}) and ${day} between @start and @end${landed}`;
  const blocks = ranges(1);
  const sql = blocks.length === 0 ? exact : `select (${exact}) + (select count(*) from ${table} where (${blocks.join(' or ')})${landed})`;
  return Number(db.value(sql, params));
}

/**
 * Rows whose event time lies in a range of times of day (hourly partitions):
 * from the range's first hour to the end of its last (the next whole hour,
 * excluded; a last partition that is no whole hour counts up to itself),
 * compared as ISO text, which the event column's index serves.
 */
function rawRowsInTimeRange(db: Warehouse, alias: string, eventTime: string, loadedAt: string, range: PartitionRange, asOf: string | null, schema: string, options: { readonly endExcluded?: boolean } = {}): number {
  const event = dialect.castText(quoteIdentifier(eventTime));
  const after = options.endExcluded ? range.end : nextWholeHour(range.end);
  const landed = asOf === null ? '' : ` and cast(${quoteIdentifier(loadedAt)} as text) <= @asOf`;
  const sql = `select count(*) from ${qualifiedName(schema, alias)} where ${event} >= @start and ${event} ${after === undefined ? '<=' : '<'} @end${landed}`;
  return Number(db.value(sql, { start: range.start, end: after ?? range.end, ...(asOf === null ? {} : { asOf }) }));
}

/**
 * Text ranges, one per calendar year, whose every text is in the range by
 * the exact test: from the range's second day to three days before its
 * end, and within one year's `YYYY-` prefix. A text there is in the range
 * as text (when it is no date), or is a date read from that prefix (its
 * first ten characters): moved by at most a day by its time and offset
 * (SQLite's offsets stop short of 15 hours, and 24:00 is the next day's
 * midnight), and by up to three days past its month's end by a day that
 * month does not have ('2026-02-31' is March 3rd), which is why the upper
 * end keeps three days off. The prefix is what keeps out a text that
 * date() reads as a number ('2026.5' is a Julian day): no number has a
 * dash after four digits. The texts between years ('2026-13', '2026-9')
 * stay with the exact test. Empty for ranges too short to have any.
 */
function interiorBlocks(range: PartitionRange): [string, string][] {
  const lo = addDays(range.start, 1);
  const hi = addDays(range.end, -3);
  if (lo >= hi) return [];
  const blocks: [string, string][] = [];
  for (let year = Number(lo.slice(0, 4)); year <= Number(hi.slice(0, 4)); year++) {
    // Every text from YYYY-01-01 to YYYY-12-32 starts with `YYYY-`; the bounds are all day-shaped, so
    // they keep their order under any collation (a locale's too, which may skip the dashes).
    const from = `${year}-01-01`;
    const to = `${year}-12-32`;
    blocks.push([from > lo ? from : lo, to < hi ? to : hi]);
  }
  return blocks;
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
