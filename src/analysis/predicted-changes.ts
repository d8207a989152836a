import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { diffPartitions, type PartitionDiff } from './diff-partitions.js';
import type { PartitionRange } from './minimal-ranges.js';
import { partitionTotals, type Totals } from './range-totals.js';

export interface PredictedChanges {
  /** Partitions in the ranges (live or staged) that were compared. */
  readonly partitionsCompared: number;
  /** Partitions whose rows the backfill changes: the live rows and the rows it would write. */
  readonly partitions: PartitionDiff[];
  /** Totals over the changed partitions: live, and after the backfill. */
  readonly totals: { readonly live: Totals; readonly after: Totals };
}

/**
 * What a backfill changes, before it runs: the stale diff restricted to its
 * ranges, i.e. the live table's partitions in the ranges against the rows
 * the backfill staged for them, partition by partition (as `stale` diffs the
 * whole table against a full rebuild), with the totals over the partitions
 * that change. `rebuilt` in each partition is what the backfill would write.
 */
export function predictedChanges(
  db: Warehouse,
  live: { readonly relation: string; readonly columns: readonly string[] },
  staged: { readonly relation: string; readonly columns: readonly string[] },
  partitionColumn: string,
  ranges: readonly PartitionRange[],
): PredictedChanges {
  const part = `cast(${quoteIdentifier(partitionColumn)} as text)`;
  const inRanges = ranges.map((r) => `${part} between ${sqlText(r.start)} and ${sqlText(r.end)}`).join(' or ');
  const liveInRanges = `(select * from ${live.relation} where ${inRanges})`;
  const diff = diffPartitions(db, { relation: liveInRanges, columns: live.columns }, staged, partitionColumn);
  const filter = { partitions: diff.stale };
  return {
    partitionsCompared: diff.partitionsChecked,
    partitions: diff.details,
    totals: {
      live: partitionTotals(db, liveInRanges, diff.columns, partitionColumn, filter),
      after: partitionTotals(db, staged.relation, diff.columns, partitionColumn, filter),
    },
  };
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
