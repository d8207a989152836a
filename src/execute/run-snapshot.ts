import { nowIso } from '../clock.js';
import type { ModelNode, SnapshotNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import { parseModelSettings } from '../config/model-settings.js';
import { dialect } from '../engine/current-engine.js';
import { describeSelect } from '../engine/describe-select.js';
import { refuseReservedWrites } from '../engine/refuse-reserved-writes.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import { ProjectError } from '../errors/project-error.js';
import { buildSnapshotTable, buildStagingTable, closeChangedRows, currentRowsWhere, insertNewRows, snapshotTime, type SnapshotSqlInput } from '../materialize/snapshot/snapshot-sql.js';
import { scratchTableName } from '../project/reserved-names.js';
import { recordNodeRun } from '../state/ledger.js';
import type { NodeResult } from '../state/node-result.js';
import { isBusyError } from '../state/warehouse-locked.js';
import { crashPoint, injectedFailure } from '../test-hooks.js';
import { checkSnapshotColumns } from './snapshot-columns.js';
import { applyGrants, currentGrants } from '../materialize/grant-statements.js';
import { readGrants } from '../config/grants-config.js';
import { relationName } from './describe-node.js';
import type { TestStepContext } from './run-test-step.js';
import { snapshotHookRunner } from './snapshot-hooks.js';

/** What a snapshot step needs: what a data test step needs (the warehouse, the run, the progress lines, the failed nodes). */
export type SnapshotStepContext = TestStepContext;

/** What one snapshot run did, per key class (the teaching line). */
export interface SnapshotCounts {
  readonly new: number;
  readonly changed: number;
  readonly deleted: number;
  readonly unchanged: number;
}

export const describeSnapshot = (node: SnapshotNode) => `snapshot ${node.schema}.${node.alias}`;

/** The snapshot's body as a model, so it renders exactly as a model does (refs, sources, macros, vars). */
function asModel(node: SnapshotNode): ModelNode {
  return { ...node, resourceType: 'model', uniqueId: node.uniqueId, settings: parseModelSettings({ materialized: 'table' }) };
}

/**
 * Run one snapshot: render its query, check the columns its config names, then in one transaction
 * build the table (first run) or stage this run's changes and apply them (dbt's snapshot_staging_table
 * and snapshot_merge_sql), with its ledger row. A failure rolls everything back.
 */
export function runSnapshotStep(node: SnapshotNode, ctx: SnapshotStepContext): NodeResult {
  const { db, emit, index, total } = ctx;
  const description = describeSnapshot(node);
  const startedAt = nowIso();
  const t0 = performance.now();
  const base = { uniqueId: node.uniqueId, name: node.name, resourceType: 'snapshot' as const, startedAt, relationName: relationName(node), rowsDeleted: 0, partitions: [], asOf: null, path: node.file.path };
  const upstream = node.dependsOn.find((p) => ctx.failed.has(p) || ctx.blocked.has(p));
  if (upstream) {
    ctx.failed.add(node.uniqueId);
    const result: NodeResult = { ...base, status: 'skipped', message: `skipped because ${upstream} failed`, executionTime: 0, completedAt: startedAt, adapterResponse: {}, rowsInserted: 0, exitCode: 1 };
    emit({ type: 'result', index, total, description, result });
    return result;
  }
  emit({ type: 'start', index, total, description, uniqueId: node.uniqueId });
  let sql: string | undefined;
  const record = (status: 'success' | 'error', inserted: number, mode: string, message: string | null) =>
    recordNodeRun(db, {
      invocation_id: ctx.run.invocationId, unique_id: node.uniqueId, model: node.name, resource_type: 'snapshot', materialization: 'snapshot',
      strategy: node.settings.strategy, mode, reason: mode === 'full' ? 'first snapshot run: every row is current' : `snapshot (${node.settings.strategy}): new versions of changed rows, old ones closed`,
      as_of: null, window_start: null, window_end: null, partition_column: null, rows_deleted: 0, rows_inserted: inserted, status, message,
      started_at: startedAt, completed_at: nowIso(), execution_time: (performance.now() - t0) / 1000,
    });
  try {
    const log = (message: string) => emit({ type: 'log', message });
    sql = renderModel(ctx.manifest, asModel(node), { db, incremental: false, run: ctx.run, log }).sql;
    // PostgreSQL runs a data-modifying WITH inside the snapshot's create table as: never on the tool's tables (E230).
    refuseReservedWrites(sql, `the SQL of snapshot '${node.name}'`);
    const sourceColumns = describeSelect(db, sql);
    checkSnapshotColumns(node, sourceColumns.map((c) => c.name));
    const target = qualifiedName(node.schema, node.alias);
    const staging = dialect.tempRelation(scratchTableName(node.alias, 'new'));
    const exists = db.relationKind(node.alias, node.schema) !== null;
    const validFromType = exists ? db.relationColumns(node.alias, { schema: node.schema }).find((c) => c.name === node.settings.columns.dbt_valid_from)?.type : undefined;
    const input: SnapshotSqlInput = { settings: node.settings, sourceSql: sql, target, staging, sourceColumns: sourceColumns.map((c) => c.name), now: snapshotTime(ctx.run.startedAt, validFromType || undefined) };
    let counts: SnapshotCounts;
    let inserted = 0;
    // dbt's sql_header: run (a script: the project's own text) just before each create of the snapshot's tables, in the transaction.
    const header = typeof node.config.sql_header === 'string' && node.config.sql_header.trim() !== '' ? node.config.sql_header.trim() : undefined;
    const runHeader = () => {
      if (header === undefined) return;
      // The project's SQL may read mini-dbt's own tables, never write them (E230).
      refuseReservedWrites(header, `the sql_header of snapshot '${node.name}'`);
      db.runScript(header);
    };
    // dbt's snapshot materialization runs pre-hooks and post-hooks as the table one does (run_hooks around the build).
    const hooks = snapshotHookRunner(ctx.manifest, node, asModel(node), { run: ctx.run, log });
    hooks(db, 'pre', false);
    db.begin();
    try {
      hooks(db, 'pre', true);
      if (!exists) {
        runHeader();
        db.exec(buildSnapshotTable(input));
        inserted = Number(db.value(`select count(*) from ${target}`));
        counts = { new: inserted, changed: 0, deleted: 0, unchanged: 0 };
      } else if (ctx.run.empty) {
        // --empty: the query reads no rows, which would close every current row; an existing snapshot is left as it is.
        counts = { new: 0, changed: 0, deleted: 0, unchanged: Number(db.value(`select count(*) from ${target} where ${currentRowsWhere(node.settings)}`)) };
      } else {
        // dbt's create_columns: a column the query gained is added to the snapshot (earlier rows hold NULL).
        const have = new Set(db.relationColumns(node.alias, { schema: node.schema }).map((c) => c.name.toLowerCase()));
        for (const c of sourceColumns) if (!have.has(c.name.toLowerCase())) db.exec(dialect.addColumn(target, c.name, c.type));
        const targetColumns = db.relationColumns(node.alias, { schema: node.schema }).map((c) => c.name);
        const current = Number(db.value(`select count(*) from ${target} where ${currentRowsWhere(node.settings)}`));
        db.exec(dialect.dropRelation('table', staging, { ifExists: true }));
        runHeader();
        db.exec(buildStagingTable(input));
        const count = (where: string) => Number(db.value(`select count(*) from ${staging} where ${where}`));
        const changed = count("dbt_change_type = 'update'");
        const deleted = count("dbt_change_type = 'delete'");
        counts = { new: count("dbt_change_type = 'insert' and dbt_key_class = 'new'"), changed, deleted, unchanged: current - changed - deleted };
        db.exec(closeChangedRows(input));
        inserted = db.run(insertNewRows(input, targetColumns)).changes;
        db.exec(dialect.dropRelation('table', staging, { ifExists: true }));
      }
      // dbt's apply_grants: an existing snapshot keeps its grants (should_revoke), so what the config no longer lists is revoked.
      const grants = readGrants(node.config);
      const dcl = applyGrants(db, { schema: node.schema, alias: node.alias, grants, ...(exists && grants ? { current: currentGrants(db, node.schema, node.alias) } : {}) });
      for (const text of dcl) emit({ type: 'log', message: `${node.name}: ${text}`, level: 'debug' });
      hooks(db, 'post', true);
      injectedFailure(node.name, 'snapshot');
      crashPoint();
      record('success', inserted, exists ? 'snapshot' : 'full', null);
      db.commit();
    } catch (err) {
      db.rollback();
      throw err;
    }
    hooks(db, 'post', false);
    emit({ type: 'log', message: `${node.name}: new ${counts.new}, changed ${counts.changed}, deleted ${counts.deleted}, unchanged ${counts.unchanged}` });
    const message = `INSERT ${inserted}`;
    const result: NodeResult = {
      ...base, status: 'success', message, executionTime: (performance.now() - t0) / 1000, completedAt: nowIso(),
      adapterResponse: { _message: message, code: 'INSERT', rows_affected: inserted }, compiledCode: sql, rowsInserted: inserted, exitCode: 0,
    };
    emit({ type: 'result', index, total, description, result });
    return result;
  } catch (err) {
    if (isBusyError(err)) throw err;
    ctx.failed.add(node.uniqueId);
    const error = err instanceof Error ? err : new Error(String(err));
    const message = error instanceof ProjectError ? error.format() : `Database Error in snapshot ${node.name} (${node.file.path})\n  ${error.message}`;
    try {
      record('error', 0, 'snapshot', message);
    } catch {
      // The ledger write must not hide the real error.
    }
    const result: NodeResult = {
      ...base, status: 'error', message, executionTime: (performance.now() - t0) / 1000, completedAt: nowIso(), adapterResponse: {},
      compiledCode: sql, rowsInserted: 0, exitCode: 1, error,
    };
    emit({ type: 'result', index, total, description, result });
    return result;
  }
}
