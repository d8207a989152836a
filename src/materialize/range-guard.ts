import { quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import type { AssertNoneStatement } from './planned-statement.js';

export interface GuardedRange {
  readonly start: string;
  readonly end: string;
}

/**
 * The backfill command's promise, checked on the staged rows inside the
 * publish: every partition written lies in start..end (a NULL partition
 * does not; a timestamp counts by its date). A model whose incremental branch ignores the start/end vars
 * would otherwise rewrite partitions nobody asked for.
 */
export function rangeGuard(model: string, newRows: string, partitionColumn: string, range: GuardedRange): AssertNoneStatement {
  const column = quoteIdentifier(partitionColumn);
  const day = dialect.dayOrText(column);
  const outside = `select distinct ${column} as p from ${newRows} where ${column} is null or ${day} not between ${sqlText(range.start)} and ${sqlText(range.end)}`;
  return {
    kind: 'assert-none',
    sql: `select count(*) from (${outside})`,
    sampleSql: `${outside} order by 1 limit 3`,
    unit: 'partition',
    message: `model '${model}' would write partitions outside ${range.start}..${range.end}: its incremental branch ignores the start/end vars`,
    hint: `nothing was written; filter the incremental branch on the range, e.g. where ${partitionColumn} between '{{ var("start") }}' and '{{ var("end") }}'`,
  };
}

/** The checks a backfill makes on the rows it stages, as the report lists them. */
export function rangeGuardCheckNames(uniqueKey: readonly string[], partitionColumn: string, range: GuardedRange): string[] {
  const key = uniqueKey.join(', ');
  return [
    ...(uniqueKey.length > 0 ? [`${key} not null`, `${key} unique`] : []),
    `${partitionColumn} within ${range.start}..${range.end}`,
  ];
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
