import type { Warehouse } from '../engine/open-warehouse.js';
import { allRows, ledgerQueries as q } from './query-builder.js';

/**
 * The batches of a microbatch model the run ledger records as built: every
 * partition (batch label, 2024-09-17) written by a successful microbatch publish. Empty
 * when the ledger does not exist yet (a read-only compile of a new warehouse).
 */
export function builtBatches(db: Warehouse, model: string): Set<string> {
  const ledger = db.hasTable('_mini_dbt_partitions');
  if (!ledger) return new Set();
  const rows = allRows(db, q
    .selectFrom('_mini_dbt_partitions as p')
    .innerJoin('_mini_dbt_node_runs as n', 'n.id', 'p.node_run_id')
    .select('p.partition')
    .distinct()
    .where('p.model', '=', model)
    .where('n.status', '=', 'success')
    .where('n.strategy', '=', 'microbatch'));
  return new Set(rows.map((r) => r.partition));
}
