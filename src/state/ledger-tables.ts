import type { Generated } from 'kysely';
import { RESERVED_PREFIX } from '../project/reserved-names.js';

/** The tool's own tables, kept in the warehouse file next to the models. */
export interface RunsTable {
  invocation_id: string;
  command: string;
  command_line: string;
  vars_json: string;
  reason: string | null;
  as_of: string | null;
  status: string; // running | success | error
  started_at: string;
  completed_at: string | null;
  /** The process that ran it (ledger migration 2), to tell a live lock holder from a crashed run. */
  pid: number | null;
  host: string | null;
  process_start: string | null;
}

export interface NodeRunsTable {
  id: Generated<number>;
  invocation_id: string;
  unique_id: string;
  model: string;
  resource_type: string;
  materialization: string;
  strategy: string | null;
  mode: string; // full | incremental | backfill | seed | view
  reason: string | null;
  as_of: string | null;
  window_start: string | null;
  window_end: string | null;
  partition_column: string | null;
  rows_deleted: number;
  rows_inserted: number;
  status: string; // success | error
  message: string | null;
  started_at: string;
  completed_at: string;
  execution_time: number;
  /** A model's definitionHash (src/plan/definition-hash.ts) when it ran (ledger migration 3); null for other nodes and older rows. */
  definition_hash?: string | null;
}

export interface PartitionsTable {
  node_run_id: number;
  invocation_id: string;
  model: string;
  partition: string;
  as_of: string | null;
}

export interface MigrationsTable {
  version: number;
  name: string;
}

export interface LedgerTables {
  _mini_dbt_runs: RunsTable;
  _mini_dbt_node_runs: NodeRunsTable;
  _mini_dbt_partitions: PartitionsTable;
  _mini_dbt_migrations: MigrationsTable;
}

export const LEDGER_TABLE_PREFIX = RESERVED_PREFIX;

/** Compile-time: every ledger table is named inside the reserved namespace (src/project/reserved-names.ts). */
type OutsideReserved = Exclude<keyof LedgerTables, `${typeof RESERVED_PREFIX}${string}`>;
export const LEDGER_TABLES_RESERVED: [OutsideReserved] extends [never] ? true : never = true;
