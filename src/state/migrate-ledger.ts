import { compiledOnce } from './compiled-once.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { allRows, ledgerQueries as q, runQuery } from './query-builder.js';
import { queryEngineName as engineName } from '../engine/query-dialect.js';

interface Migration {
  readonly version: number;
  readonly name: string;
  readonly up: () => { compile(): { sql: string; parameters: readonly unknown[] } }[];
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, node runs and partitions',
    up: () => [
      q.schema.createTable('_mini_dbt_runs').ifNotExists()
        .addColumn('invocation_id', 'text', (c) => c.primaryKey())
        .addColumn('command', 'text', (c) => c.notNull())
        .addColumn('command_line', 'text', (c) => c.notNull())
        .addColumn('vars_json', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('as_of', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text'),
      q.schema.createTable('_mini_dbt_node_runs').ifNotExists()
        .addColumn('id', engineName() === 'postgres' ? 'bigserial' : 'integer', (c) => (engineName() === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('invocation_id', 'text', (c) => c.notNull())
        .addColumn('unique_id', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('materialization', 'text', (c) => c.notNull())
        .addColumn('strategy', 'text')
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('as_of', 'text')
        .addColumn('window_start', 'text')
        .addColumn('window_end', 'text')
        .addColumn('partition_column', 'text')
        .addColumn('rows_deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('rows_inserted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text', (c) => c.notNull())
        .addColumn('execution_time', engineName() === 'postgres' ? 'double precision' : 'real', (c) => c.notNull().defaultTo(0)),
      q.schema.createIndex('_mini_dbt_node_runs_model').ifNotExists().on('_mini_dbt_node_runs').columns(['model', 'id']),
      q.schema.createTable('_mini_dbt_partitions').ifNotExists()
        .addColumn('node_run_id', 'integer', (c) => c.notNull())
        .addColumn('invocation_id', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('partition', 'text', (c) => c.notNull())
        .addColumn('as_of', 'text'),
      q.schema.createIndex('_mini_dbt_partitions_model').ifNotExists().on('_mini_dbt_partitions').columns(['model', 'partition', 'node_run_id']),
    ],
  },
  {
    version: 2,
    name: 'the process of a run (pid, host, process start)',
    up: () => [
      q.schema.alterTable('_mini_dbt_runs').addColumn('pid', 'integer'),
      q.schema.alterTable('_mini_dbt_runs').addColumn('host', 'text'),
      q.schema.alterTable('_mini_dbt_runs').addColumn('process_start', 'text'),
    ],
  },
  {
    version: 3,
    name: "the model's definition each node run wrote under (stale's candidates)",
    up: () => [q.schema.alterTable('_mini_dbt_node_runs').addColumn('definition_hash', 'text')],
  },
  {
    version: 4,
    name: "each node run's partitions by run (stale's writes since the last full build)",
    up: () => [q.schema.createIndex('_mini_dbt_partitions_run').ifNotExists().on('_mini_dbt_partitions').columns(['model', 'node_run_id', 'partition'])],
  },
];

/**
 * Whether every migration is applied, in one query (no lock needed to read
 * it). False when the ledger is missing, or the query fails for any other
 * reason: the caller then migrates under its lock, which reports a failure.
 */
export function ledgerIsCurrent(db: Warehouse): boolean {
  try {
    const { sql } = compiledOnce('applied migrations', [], () => q.selectFrom('_mini_dbt_migrations').select('version'));
    const applied = new Set(db.all<{ version: number }>(sql).map((row) => row.version));
    return MIGRATIONS.every((m) => applied.has(m.version));
  } catch {
    return false;
  }
}

/** Bring the ledger tables up to date, in one transaction. Idempotent. */
export function migrateLedger(db: Warehouse): void {
  const hasTable = db.hasTable('_mini_dbt_migrations');
  const applied = new Set<number>();
  if (hasTable) {
    for (const row of allRows(db, q.selectFrom('_mini_dbt_migrations').select('version'))) applied.add(row.version);
    if (MIGRATIONS.every((m) => applied.has(m.version))) return;
  }
  db.transaction(() => {
    runQuery(db, q.schema.createTable('_mini_dbt_migrations').ifNotExists()
      .addColumn('version', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull()));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      for (const step of migration.up()) runQuery(db, step as never);
      runQuery(db, q.insertInto('_mini_dbt_migrations').values({ version: migration.version, name: migration.name }));
    }
  });
}
