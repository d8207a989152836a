import { quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import type { AssertNoneStatement } from './planned-statement.js';
import { isIsoDate } from '../feed/iso-date.js';

export interface GuardedRange {
  readonly start: string;
  readonly end: string;
  /** Several disjoint ranges inside start..end: a partition must lie in one of them. */
  readonly ranges?: readonly { readonly start: string; readonly end: string }[];
}

/**
 * The backfill command's promise, checked on the staged rows inside the
 * publish: every partition written lies in start..end (or, for a backfill of
 * several ranges, in one of them; a NULL partition does not; against a range
 * of dates a timestamp counts by its date, against any other range (hours,
 * months) a partition is compared as it is written). A model whose incremental branch ignores the
 * start/end vars would otherwise rewrite partitions nobody asked for.
 */
export function rangeGuard(model: string, newRows: string, partitionColumn: string, range: GuardedRange): AssertNoneStatement {
  const column = quoteIdentifier(partitionColumn);
  const outside = `select distinct ${column} as p from ${newRows} where ${column} is null or not (${inGuardedRange(column, range)})`;
  return {
    kind: 'assert-none',
    sql: `select count(*) from (${outside}) as outside_range`,
    sampleSql: `${outside} order by 1 limit 3`,
    unit: 'partition',
    message: `model '${model}' would write partitions outside ${describeGuardedRange(range)}: its incremental branch ignores the start/end vars`,
    hint: `nothing was written; filter the incremental branch on the range, e.g. where ${partitionColumn} between '{{ var("start") }}' and '{{ var("end") }}'`,
  };
}

/** The checks a backfill makes on the rows it stages, as the report lists them. */
export function rangeGuardCheckNames(uniqueKey: readonly string[], partitionColumn: string, range: GuardedRange): string[] {
  const key = uniqueKey.join(', ');
  return [
    ...(uniqueKey.length > 0 ? [`${key} not null`, `${key} unique`] : []),
    `${partitionColumn} within ${describeGuardedRange(range)}`,
  ];
}

/** SQL: the (quoted) partition column's day (or, for a range that is not of dates, its text) lies in one of the guarded ranges. */
export function inGuardedRange(column: string, range: GuardedRange): string {
  const day = dialect.dayOrText(column);
  const text = dialect.castText(column);
  return guardedRanges(range)
    .map((r) => `${isIsoDate(r.start) && isIsoDate(r.end) ? day : text} between ${sqlText(r.start)} and ${sqlText(r.end)}`)
    .join(' or ');
}

/**
 * A backfill rewrites whole partitions: one of its ranges' partitions that
 * the new rows no longer have (its only order moved to another day) is
 * emptied, not left with its old rows. `partitions` lists what the publish
 * writes, emptied ones included; `delete` removes them (before the strategy's
 * own delete and insert).
 */
export function emptiedPartitions(target: string, newRows: string, partitionColumn: string, range: GuardedRange): { partitions: string; delete: string } {
  const column = quoteIdentifier(partitionColumn);
  const emptied = `(${inGuardedRange(column, range)}) and ${column} not in (select ${column} from ${newRows} where ${column} is not null)`;
  return {
    partitions: `select distinct ${column} from ${newRows} union select distinct ${column} from ${target} where ${emptied} order by 1`,
    delete: `delete from ${target} where ${emptied}`,
  };
}

/** The ranges a guard accepts: the listed ones, else start..end. */
export function guardedRanges(range: GuardedRange): readonly { readonly start: string; readonly end: string }[] {
  return range.ranges && range.ranges.length > 0 ? range.ranges : [range];
}

/** "2026-09-03..2026-09-04", or "the 11 ranges in 2026-09-03..2026-10-26". */
function describeGuardedRange(range: GuardedRange): string {
  const ranges = guardedRanges(range);
  return ranges.length === 1 ? `${ranges[0]!.start}..${ranges[0]!.end}` : `the ${ranges.length} ranges in ${range.start}..${range.end}`;
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
