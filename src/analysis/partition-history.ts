import type { Warehouse } from '../engine/open-warehouse.js';
import { ledgerQueries as q, allRows } from '../state/query-builder.js';

export interface HistoryEntry {
  readonly invocation_id: string;
  readonly command: string;
  readonly command_line: string;
  readonly vars: Record<string, unknown>;
  /** Why the run happened (--reason). */
  readonly run_reason: string | null;
  /** Why this mode (first build, is_incremental(), start/end vars, ...). */
  readonly mode_reason: string | null;
  readonly mode: string;
  readonly strategy: string | null;
  readonly status: string;
  readonly message: string | null;
  readonly as_of: string | null;
  readonly window_start: string | null;
  readonly window_end: string | null;
  readonly partitions_written: number;
  readonly rows_deleted: number;
  readonly rows_inserted: number;
  readonly started_at: string;
  readonly execution_time: number;
}

type Row = Omit<HistoryEntry, 'vars'> & { vars_json: string; node_run_id: number };

function base() {
  return q
    .selectFrom('_mini_dbt_node_runs as n')
    .innerJoin('_mini_dbt_runs as r', 'r.invocation_id', 'n.invocation_id')
    .select((eb) => [
      'n.id as node_run_id', 'n.invocation_id', 'r.command', 'r.command_line', 'r.vars_json', 'r.reason as run_reason', 'n.reason as mode_reason', 'n.mode', 'n.strategy',
      'n.status', 'n.message', 'n.as_of', 'n.window_start', 'n.window_end', 'n.rows_deleted', 'n.rows_inserted', 'n.started_at', 'n.execution_time',
      eb.selectFrom('_mini_dbt_partitions as p').whereRef('p.node_run_id', '=', 'n.id').select((e) => e.fn.countAll<number>().as('c')).as('partitions_written'),
    ]);
}

function entry(row: Row): HistoryEntry {
  const { vars_json: varsJson, node_run_id: _id, ...rest } = row;
  let vars: Record<string, unknown> = {};
  try {
    vars = JSON.parse(varsJson) as Record<string, unknown>;
  } catch {
    // a hand-edited ledger row: show no vars rather than fail
  }
  return { ...rest, partitions_written: Number(rest.partitions_written ?? 0), vars };
}

/** Every recorded build of a model, newest first (failed ones included). */
export function modelHistory(db: Warehouse, model: string, limit = 50): HistoryEntry[] {
  return allRows(db, base().where('n.model', '=', model).orderBy('n.id', 'desc').limit(limit)).map((r) => entry(r as unknown as Row));
}

/**
 * The builds that wrote one partition (newest first), plus the failed builds
 * whose start/end window covered it: "when and why was it last written, and
 * from which as-of".
 */
export function partitionHistory(db: Warehouse, model: string, partition: string): HistoryEntry[] {
  const wrote = allRows(db, base()
    .where('n.model', '=', model)
    .where((eb) => eb.exists(eb.selectFrom('_mini_dbt_partitions as p').whereRef('p.node_run_id', '=', 'n.id').where('p.partition', '=', partition).select('p.node_run_id')))
  ) as unknown as Row[];
  const failed = (allRows(db, base().where('n.model', '=', model).where('n.status', '=', 'error')) as unknown as Row[])
    .filter((r) => covers(r, partition));
  return [...wrote, ...failed].sort((a, b) => b.node_run_id - a.node_run_id).map(entry);
}

/** Whether a failed run meant to write the partition: its start/end vars, else its as_of/lookback window. */
function covers(row: Row, partition: string): boolean {
  let vars: Record<string, unknown>;
  try {
    vars = JSON.parse(row.vars_json) as Record<string, unknown>;
  } catch {
    return false;
  }
  if (vars.start != null && vars.end != null) return String(vars.start) <= partition && partition <= String(vars.end);
  return false;
}
