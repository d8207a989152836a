import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';

export interface DiffTarget {
  /** Qualified, quoted relation, e.g. "daily_revenue" or temp."x". */
  readonly relation: string;
  readonly columns: readonly string[];
}

export interface PartitionDiff {
  readonly partition: string;
  readonly live: Record<string, unknown>[];
  readonly rebuilt: Record<string, unknown>[];
}

export interface TableDiff {
  /** Columns compared (those both relations have), in the rebuilt order. */
  readonly columns: string[];
  /** Columns only one side has: schema drift between the table and the model. */
  readonly onlyLive: string[];
  readonly onlyRebuilt: string[];
  /** Distinct partitions on either side. */
  readonly partitionsChecked: number;
  /** Partitions whose rows differ (as multisets), sorted. */
  readonly stale: string[];
  /** Rows of each stale partition on both sides (at most `detailRows` each). */
  readonly details: PartitionDiff[];
}

/** The pseudo-partition of a model without partition_by: the whole table. */
export const WHOLE_TABLE = '(whole table)';

/**
 * Compare two relations partition by partition. Rows are compared as
 * multisets over the common columns, so a doubled row counts as a
 * difference. Without a partition column the whole table is one partition.
 */
export function diffPartitions(
  db: Warehouse,
  live: DiffTarget,
  rebuilt: DiffTarget,
  partitionColumn: string | undefined,
  options: { detailRows?: number; detailPartitions?: number; countPartitions?: boolean } = {},
): TableDiff {
  const columns = rebuilt.columns.filter((c) => live.columns.includes(c));
  const onlyLive = live.columns.filter((c) => !rebuilt.columns.includes(c));
  const onlyRebuilt = rebuilt.columns.filter((c) => !live.columns.includes(c));
  const part = partitionColumn && columns.includes(partitionColumn) ? `cast(${quoteIdentifier(partitionColumn)} as text)` : `'${WHOLE_TABLE}'`;
  const cols = columns.map(quoteIdentifier).join(', ');
  // The partition key is computed in a subquery and grouped by name: PostgreSQL refuses a constant in GROUP BY
  // (the whole table's key), and a relation given as a subquery needs an alias there.
  const grouped = (relation: string) => `select p, ${cols}, count(*) as n from (select ${part} as p, ${cols} from ${relation} as rel) as keyed group by p, ${cols}`;
  const stale = db.values(
    `select p from (${grouped(live.relation)} except ${grouped(rebuilt.relation)}) as only_live
     union
     select p from (${grouped(rebuilt.relation)} except ${grouped(live.relation)}) as only_rebuilt
     order by 1`,
  ).map((v) => String(v));
  // countPartitions false: the caller knows what it checked (0 here).
  const partitionsChecked = options.countPartitions === false ? 0 : Number(db.value(`select count(*) from (select ${part} as p from ${live.relation} as live union select ${part} as p from ${rebuilt.relation} as rebuilt) as checked`));
  const limit = options.detailRows ?? 20;
  const rowsOf = (relation: string, p: string) =>
    db.prepare(`select ${cols} from ${relation} as rel where ${part} = ? order by ${cols} limit ?`).all(p, limit) as Record<string, unknown>[];
  const details = stale.slice(0, options.detailPartitions ?? stale.length).map((p) => ({ partition: p, live: rowsOf(live.relation, p), rebuilt: rowsOf(rebuilt.relation, p) }));
  return { columns, onlyLive, onlyRebuilt, partitionsChecked, stale, details };
}
