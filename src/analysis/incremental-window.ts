import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';

export interface IncrementalWindow {
  /** First and last partition the incremental SELECT returns now; null when it returns none. */
  readonly first: string | null;
  readonly last: string | null;
  readonly partitions: number;
  readonly rows: number;
}

/**
 * The partitions an incremental run would rewrite, found by running its
 * SELECT on a (read-only) connection. Undefined when the SELECT cannot run
 * yet (e.g. a table it reads does not exist).
 */
export function incrementalWindow(db: Warehouse, sql: string, partitionColumn: string): IncrementalWindow | undefined {
  const p = quoteIdentifier(partitionColumn);
  try {
    const row = db.prepare(`select min(cast(${p} as text)) as first, max(cast(${p} as text)) as last, count(distinct ${p}) as partitions, count(*) as rows from (\n${sql}\n) as window_rows`).get() as IncrementalWindow;
    return { first: row.first, last: row.last, partitions: Number(row.partitions), rows: Number(row.rows) };
  } catch {
    return undefined;
  }
}
