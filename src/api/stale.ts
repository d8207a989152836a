import { warehouseExists } from '../engine/warehouse-exists.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { replacesRows } from '../materialize/incremental/strategy-registry.js';
import { ProjectError } from '../errors/project-error.js';
import { effectiveAsOf } from '../state/effective-as-of.js';
import { dateRange, isIsoDate } from '../feed/iso-date.js';
import { exactStale } from '../analysis/exact-stale.js';
import { candidateStale } from '../analysis/candidate-stale.js';
import { fastStale, type FastStalePartition } from '../analysis/fast-stale.js';
import { findModel } from '../analysis/find-node.js';
import { minimalRanges, type PartitionRange } from '../analysis/minimal-ranges.js';
import type { PartitionDiff } from '../analysis/diff-partitions.js';
import type { Totals } from '../analysis/range-totals.js';
import { requireIsoDateOrTime } from '../analysis/require-iso-date.js';
import { wholeHourSpan } from '../feed/iso-hour.js';
import { isoMonthSpan } from '../feed/iso-month.js';
import { notFinal, type NotFinal } from '../analysis/not-final.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { loadSession, withVars, type Session, type SessionOptions } from './session.js';
import { warnIgnoredAsOf, warnUnusedVars } from './warn-unused-vars.js';

export interface StaleOptions extends SessionOptions {
  readonly model: string;
  /** 'exact' (default): diff against a full rebuild in a scratch table; 'fast': from the ledger and the raw rows. */
  readonly mode?: 'exact' | 'fast';
  readonly session?: Session;
  /** Use this open connection instead of opening the project's warehouse read-only (replay). */
  readonly db?: Warehouse;
  /** Keep the live/rebuilt rows of at most this many stale partitions (default all). */
  readonly detailPartitions?: number;
  /** Work out which recent partitions are not final yet (default true; one query over the raw input's dates). */
  readonly notFinal?: boolean;
  /**
   * Exact mode: rebuild and compare only the partitions the run ledger
   * cannot vouch for (src/analysis/candidate-stale.ts), trusting the rest;
   * default false: every partition is compared with a full rebuild, which is
   * what catches an incremental branch that computes other rows than the
   * full refresh (the traps).
   */
  readonly candidates?: boolean;
}

export interface StaleReport {
  readonly model: string;
  readonly mode: 'exact' | 'fast';
  /** The as-of the table is compared at: var('as_of'), else everything landed so far. */
  readonly as_of: string | null;
  readonly partition_column: string | null;
  readonly partitions_checked: number;
  readonly stale: string[];
  /** The fewest ranges covering exactly the stale partitions. */
  readonly ranges: PartitionRange[];
  /** One range from the first to the last stale partition, and how many partitions it spans. */
  readonly covering_range: (PartitionRange & { partitions: number }) | null;
  /** Exact mode: live and rebuilt rows per stale partition. Fast mode: the late rows per partition. */
  readonly partitions: (PartitionDiff | FastStalePartition)[];
  /** Exact mode: totals of the stale partitions, live vs rebuilt. */
  readonly totals?: { live: Totals; rebuilt: Totals };
  /**
   * Exact mode: how many partitions were rebuilt and compared: all of them
   * (a full rebuild, null), or the candidates the ledger could not vouch for
   * (the rest were written from the same raw rows under the same definition).
   */
  readonly rebuilt_partitions?: number | null;
  /** Exact mode: columns only the live table or only the model has. */
  readonly schema_drift?: { only_live: string[]; only_rebuilt: string[] };
  readonly backfill_command: string | null;
  /**
   * The recent partitions that are not final yet, as of the same as-of: rows
   * may still land for a day until day + the longest lateness seen in the
   * raw input (null without a dated raw input, or with notFinal: false).
   */
  readonly not_final: NotFinal | null;
}

/** Which partitions of a model differ from what a full rebuild would give now (or as of var('as_of')). */
export function stale(options: StaleOptions): StaleReport {
  let session = options.session ? (options.vars ? withVars(options.session, options.vars) : options.session) : loadSession(options);
  const { manifest, graph, project } = session;
  const node = findModel(manifest, options.model);
  warnUnusedVars(session, options.vars, [node.uniqueId]);
  warnIgnoredAsOf(session, options.vars, [node.uniqueId]);
  const declared = manifest.vars.as_of;
  if (declared !== undefined && declared !== null && declared !== '') {
    const asOf = requireIsoDateOrTime(declared, "var 'as_of'");
    if (asOf !== declared) session = withVars(session, { ...(options.vars ?? {}), as_of: asOf });
  }
  if (!options.db && !warehouseExists(project.databasePath)) {
    throw new ProjectError(`warehouse ${project.databasePath} does not exist yet`, { hint: 'run `mini-dbt seed` and `mini-dbt run` first' });
  }
  const db = options.db ?? openProjectWarehouse(project, { readonly: true });
  try {
    const asOf = effectiveAsOf(db, session.manifest, graph, node.uniqueId);
    const mode = options.mode ?? 'exact';
    let report: Omit<StaleReport, 'ranges' | 'covering_range' | 'backfill_command' | 'not_final'>;
    if (mode === 'fast') {
      if (asOf === null) throw new ProjectError(`cannot tell the as-of of '${node.name}': no loaded_at upstream and no as_of var`, { hint: 'drop --fast' });
      const fast = fastStale(db, session.manifest, graph, node, asOf);
      report = { model: node.name, mode, as_of: asOf, partition_column: fast.partitionColumn, partitions_checked: fast.partitionsChecked, stale: fast.stale, partitions: fast.details };
    } else {
      const exists = db.relationKind(node.alias, node.schema) !== null;
      const candidates = exists && options.candidates ? candidateStale(db, session.manifest, graph, node, asOf, { detailPartitions: options.detailPartitions }) : undefined;
      const exact = candidates ?? exactStale(db, session.manifest, node, { detailPartitions: options.detailPartitions });
      const drift = exact.onlyLive.length + exact.onlyRebuilt.length > 0 ? { schema_drift: { only_live: exact.onlyLive, only_rebuilt: exact.onlyRebuilt } } : {};
      report = {
        model: node.name, mode, as_of: asOf, partition_column: exact.partitionColumn ?? null, partitions_checked: exact.partitionsChecked,
        stale: exact.stale, partitions: exact.details, totals: exact.totals, rebuilt_partitions: candidates ? candidates.candidates : null, ...drift,
      };
    }
    const ranges = report.partition_column ? minimalRanges(report.stale) : [];
    const first = report.stale[0];
    const last = report.stale[report.stale.length - 1];
    const covering = first !== undefined && last !== undefined && report.partition_column
      ? { start: first, end: last, partitions: isIsoDate(first) && isIsoDate(last) ? dateRange(first, last).length : wholeHourSpan(first, last) ?? isoMonthSpan(first, last) ?? report.stale.length }
      : null;
    let command: string | null = null;
    if (report.stale.length > 0) {
      const { settings } = node;
      command = settings.materialized !== 'incremental' ? `mini-dbt run --select ${node.name}`
        // A strategy that never deletes (append, or delete+insert and merge without a key) would insert the range a second time.
        : report.partition_column && replacesRows(settings.strategy, settings.uniqueKeyColumns) ? `mini-dbt backfill ${node.name} --stale --reason "<why>"`
        : `mini-dbt run --select ${node.name} --full-refresh`;
    }
    const recent = options.notFinal === false || !report.partition_column ? null : notFinal(db, session.manifest, graph, node, asOf);
    return { ...report, ranges, covering_range: covering, backfill_command: command, not_final: recent };
  } finally {
    if (!options.db) db.close();
  }
}
