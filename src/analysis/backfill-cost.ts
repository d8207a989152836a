import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { relationKind } from '../engine/relation-kind.js';
import { addDays, daysBetween, isIsoDate } from '../feed/iso-date.js';
import { wholeHourSpan } from '../feed/iso-hour.js';
import { isIsoMonth, nextIsoMonth } from '../feed/iso-month.js';
import type { Graph } from '../graph/graph-node.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import type { PartitionRange } from './minimal-ranges.js';

export interface BackfillCost {
  /** Raw rows the backfill reads (its days, landed by the as-of). */
  readonly rawRows: number;
  /** Raw rows a full rebuild reads (everything landed by the as-of). */
  readonly fullRebuildRawRows: number;
  /** rawRows / fullRebuildRawRows, in percent (null when a full rebuild reads nothing). */
  readonly percent: number | null;
  /** Days the backfill rewrites (every day of its ranges). */
  readonly rangeDays: number;
  /** The history a full rebuild reads: the first event day upstream to the as-of. */
  readonly historyStart: string | null;
  readonly historyEnd: string | null;
  readonly historyDays: number | null;
  /** Why the percentage is what it is, in one line computed from the figures above. */
  readonly reason: string;
}

/**
 * What a backfill costs against a full rebuild, and why: a backfill reads
 * its own days, a full rebuild the whole history, so the ratio follows
 * range days / history days (the same share of raw rows when days are
 * about equally busy). Two months of history with a 54-day range: most of
 * it; three years: a few percent.
 */
export function backfillCost(
  db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode, ranges: readonly PartitionRange[], asOf: string | null,
  raw: { readonly rawRows: number; readonly fullRebuildRawRows: number },
): BackfillCost {
  // Hourly partitions: the ranges' hours, as days (a fraction) against the history's days.
  const hours = ranges.every((r) => wholeHourSpan(r.start, r.end) !== undefined) ? ranges.reduce((n, r) => n + wholeHourSpan(r.start, r.end)!, 0) : undefined;
  const first = firstEventDay(db, manifest, graph, node);
  const historyEnd = asOf !== null && isIsoDate(asOf.slice(0, 10)) ? asOf.slice(0, 10) : null;
  const rangeDays = hours !== undefined && ranges.length > 0 ? hours / 24 : ranges.reduce((n, r) => n + daysOf(r, first, historyEnd), 0);
  const historyDays = first !== null && historyEnd !== null && first <= historyEnd ? daysBetween(first, historyEnd) + 1 : null;
  const percent = raw.fullRebuildRawRows > 0 ? (100 * raw.rawRows) / raw.fullRebuildRawRows : null;
  const byTime = ranges.every((r) => isTimeBound(r.start) && isTimeBound(r.end));
  const reason = byTime
    ? costReason(rangeDays, historyDays, percent, ranges.length, hours)
    : `${ranges.length > 1 ? `the ${ranges.length} ranges are` : 'the range is'} partitions by value, not by time (${node.settings.partitionColumn ?? 'partition_by'}): which raw rows they read, and so the cost against a full rebuild, depends on the model`;
  return { ...raw, percent, rangeDays, historyStart: first, historyEnd, historyDays, reason };
}

/** A partition bound that is a date, a whole hour or a month: a range of those has a length in time. */
const isTimeBound = (bound: string): boolean => isIsoDate(bound) || isIsoMonth(bound) || wholeHourSpan(bound, bound) !== undefined;

/** The days a range covers: its dates, or the days of its months that lie in the history (when known); 1 for a partition that is neither. */
function daysOf(r: PartitionRange, historyStart: string | null, historyEnd: string | null): number {
  if (isIsoDate(r.start) && isIsoDate(r.end)) return daysBetween(r.start, r.end) + 1;
  if (!isIsoMonth(r.start) || !isIsoMonth(r.end)) return 1;
  let from = `${r.start}-01`;
  let to = addDays(`${nextIsoMonth(r.end)!}-01`, -1);
  if (historyStart !== null && historyStart > from) from = historyStart;
  if (historyEnd !== null && historyEnd < to) to = historyEnd;
  return from <= to ? daysBetween(from, to) + 1 : 0;
}

/** One line from the figures: the share of the history the range is, and what that makes the backfill. */
export function costReason(rangeDays: number, historyDays: number | null, percent: number | null, ranges = 1, hours?: number): string {
  const subject = ranges > 1 ? `the ${ranges} ranges are` : 'the range is';
  const size = hours !== undefined ? `${hours} hour(s)` : `${rangeDays} day(s)`;
  if (historyDays === null || historyDays <= 0) return `${subject} ${size}; the history's length is unknown (no dated raw rows upstream)`;
  const share = (100 * rangeDays) / historyDays;
  const verdict = share >= 50
    ? `most of the history, so a backfill costs nearly a full rebuild`
    : share >= 20 ? `a large part of the history` : `a small part of the history, so a backfill costs a fraction of a full rebuild`;
  const rows = percent === null ? '' : `; it reads ${fmt(percent)}% of the raw rows`;
  const of = hours !== undefined ? `${hours} of the ${historyDays * 24} hour(s)` : `${rangeDays} of the ${historyDays} day(s)`;
  return `${subject} ${of} of history (${fmt(share)}%): ${verdict}${rows}`;
}

/** The earliest event day of the model's dated raw inputs (an index seek when the column leads one). */
function firstEventDay(db: Warehouse, manifest: Manifest, graph: Graph, node: ModelNode): string | null {
  let first: string | null = null;
  for (const source of timeSourcesOf(manifest, graph, node.uniqueId)) {
    const { eventTime } = source.settings;
    if (eventTime === undefined || relationKind(db, source.alias, source.schema) === null) continue;
    const value = db.value(`select ${dialect.dateOf(`min(${quoteIdentifier(eventTime)})`)} from ${qualifiedName(source.schema, source.alias)}`);
    if (typeof value === 'string' && isIsoDate(value) && (first === null || value < first)) first = value;
  }
  return first;
}

const fmt = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
