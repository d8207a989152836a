import { warehouseExists } from '../engine/warehouse-exists.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import { findModel } from '../analysis/find-node.js';
import { modelHistory, partitionHistory, type HistoryEntry } from '../analysis/partition-history.js';
import { requireIsoDate } from '../analysis/require-iso-date.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

export interface HistoryOptions extends SessionOptions {
  readonly model: string;
  /** One partition: the builds that wrote it (and failed ones meant to). */
  readonly partition?: string;
  /** At most this many builds of the model (default 50; ignored with a partition). */
  readonly limit?: number;
  readonly session?: Session;
}

export interface HistoryResult {
  readonly model: string;
  readonly partition: string | null;
  /** Newest first. */
  readonly entries: HistoryEntry[];
  /** The newest successful write (of the partition, when one is given). */
  readonly last_written: HistoryEntry | null;
}

/** The ledger's answer to "when and why was this model (or partition) last written, from which as-of". */
export function history(options: HistoryOptions): HistoryResult {
  const session = options.session ?? loadSession(options);
  const node = findModel(session.manifest, options.model);
  let partition: string | undefined;
  if (options.partition !== undefined) {
    // Date-partitioned models take a real date; anything else is taken as a partition value (bound, never spliced).
    partition = /^\d{4}-/.test(options.partition) ? requireIsoDate(options.partition, '--partition') : options.partition;
  }
  const path = session.project.databasePath;
  if (!warehouseExists(path)) throw new ProjectError(`warehouse ${path} does not exist yet`, { hint: 'run `mini-dbt seed` and `mini-dbt run` first' });
  const db = openProjectWarehouse(session.project, { readonly: true });
  try {
    const hasLedger = db.hasTable('_mini_dbt_node_runs');
    const entries = !hasLedger ? [] : partition !== undefined ? partitionHistory(db, node.name, partition) : modelHistory(db, node.name, options.limit ?? 50);
    const lastWritten = entries.find((e) => e.status === 'success' && (partition === undefined || e.partitions_written > 0)) ?? null;
    return { model: node.name, partition: partition ?? null, entries, last_written: lastWritten };
  } finally {
    db.close();
  }
}
