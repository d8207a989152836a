import { dialect } from '../engine/current-engine.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';

export interface Totals {
  readonly rows: number;
  /** Sum of every numeric column (the partition column left out). */
  readonly sums: Record<string, number>;
}

export type PartitionFilter =
  | { readonly partitions: readonly string[] }
  | { readonly start: string; readonly end: string };

/**
 * Row count and column totals of some partitions of a relation: the figures
 * a backfill reports before and after, and `stale` reports live vs rebuilt.
 * Values are bound as parameters; identifiers are quoted.
 */
export function partitionTotals(
  db: Warehouse,
  relation: string,
  columns: readonly string[],
  partitionColumn: string | undefined,
  filter?: PartitionFilter,
): Totals {
  const part = partitionColumn ? `cast(${quoteIdentifier(partitionColumn)} as text)` : undefined;
  let where = '';
  const params: unknown[] = [];
  if (filter && part) {
    if ('partitions' in filter) {
      where = `where ${part} in (select listed.value from ${dialect.jsonTexts('?', 'listed')})`;
      params.push(JSON.stringify(filter.partitions));
    } else {
      where = `where ${part} between ? and ?`;
      params.push(filter.start, filter.end);
    }
  }
  const measured = columns.filter((c) => c !== partitionColumn);
  const numeric = (c: string) => dialect.isNumber(quoteIdentifier(c));
  const selects = measured.flatMap((c, i) => [
    `count(case when ${numeric(c)} then 1 end) as n${i}`,
    `${dialect.sumOrZero(`case when ${numeric(c)} then ${quoteIdentifier(c)} end`)} as s${i}`,
  ]);
  const row = db.prepare(`select count(*) as rows${selects.length ? `, ${selects.join(', ')}` : ''} from ${relation} as rel ${where}`).get(...params) as Record<string, number>;
  const sums: Record<string, number> = {};
  measured.forEach((c, i) => {
    if (Number(row[`n${i}`]) > 0) sums[c] = Math.round(Number(row[`s${i}`]) * 1e6) / 1e6;
  });
  return { rows: Number(row.rows), sums };
}
