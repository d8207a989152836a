import { join } from 'node:path';
import type { Manifest, ModelNode, SnapshotNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import { parseModelSettings } from '../config/model-settings.js';
import { dialect } from '../engine/current-engine.js';
import { describeSelect } from '../engine/describe-select.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName } from '../engine/quote-identifier.js';
import type { RunContext } from '../invocation/run-context.js';
import { buildSnapshotTable, buildStagingTable, closeChangedRows, insertNewRows, snapshotTime } from '../materialize/snapshot/snapshot-sql.js';
import type { Project } from '../project/project.js';
import { scratchTableName } from '../project/reserved-names.js';
import { writeArtifact } from '../state/artifact-write-error.js';

/** A snapshot as compile shows it: its query rendered (dbt's compiled_code), and what a snapshot run would do now. */
export interface CompiledSnapshot {
  readonly node: SnapshotNode;
  /** The snapshot's SELECT, rendered as dbt compiles it. */
  readonly sql: string;
  /** `first run` (the table is built from the query) or `merge` (changes staged, old versions closed, new ones inserted). */
  readonly mode: 'first run' | 'merge' | 'unknown';
  readonly reason: string;
  /** The statements that run would execute, when the warehouse can answer (its inputs built). */
  readonly statements: readonly string[];
  /** What the query's log() calls said. */
  readonly logs: readonly string[];
}

/** The snapshot's body as a model, so it renders exactly as a model does (refs, sources, macros, vars). */
function asModel(node: SnapshotNode): ModelNode {
  return { ...node, resourceType: 'model', settings: parseModelSettings({ materialized: 'table' }) };
}

/** The SELECT a snapshot reads, rendered as its run renders it (`show` previews this, as dbt's show does). */
export function snapshotSql(manifest: Manifest, node: SnapshotNode, db: Warehouse | undefined, run: RunContext, log?: (message: string) => void): string {
  return renderModel(manifest, asModel(node), { db, incremental: false, run, log }).sql;
}

/**
 * Compile one snapshot: render its query and, read-only, the statements its next run would execute
 * (dbt's build_snapshot_table on a first run; else the staging table of changes and the merge's two halves).
 */
export function compileSnapshot(manifest: Manifest, node: SnapshotNode, db: Warehouse | undefined, run: RunContext): CompiledSnapshot {
  const logs: string[] = [];
  const sql = snapshotSql(manifest, node, db, run, (m) => logs.push(m));
  if (!db) return { node, sql, mode: 'unknown', reason: 'no warehouse yet: the statements depend on whether the snapshot table exists', statements: [], logs };
  let described: { name: string; type: string }[];
  try {
    described = describeSelect(db, sql);
  } catch (err) {
    return { node, sql, mode: 'unknown', reason: `its query cannot run yet (${err instanceof Error ? err.message : String(err)})`, statements: [], logs };
  }
  const columns = described.map((c) => c.name);
  const target = qualifiedName(node.schema, node.alias);
  const input = { settings: node.settings, sourceSql: sql, target, staging: dialect.tempRelation(scratchTableName(node.alias, 'new')), sourceColumns: columns, now: snapshotTime(run.startedAt) };
  if (db.relationKind(node.alias, node.schema) === null) {
    return { node, sql, mode: 'first run', reason: `${target} does not exist: it is built from the query, every row current`, statements: [buildSnapshotTable(input)], logs };
  }
  const targetColumns = db.relationColumns(node.alias, { schema: node.schema }).map((c) => c.name);
  const have = new Set(targetColumns.map((c) => c.toLowerCase()));
  const added = described.filter((c) => !have.has(c.name.toLowerCase()));
  return {
    node, sql, mode: 'merge', logs,
    reason: `${target} exists: this run's changes are staged, changed and deleted rows closed, new versions inserted (${node.settings.strategy} strategy)`,
    statements: [
      // dbt's create_columns: a column the query gained is added first.
      ...added.map((c) => dialect.addColumn(target, c.name, c.type)),
      dialect.dropRelation('table', input.staging, { ifExists: true }),
      buildStagingTable(input),
      closeChangedRows(input),
      insertNewRows(input, [...targetColumns, ...added.map((c) => c.name)]),
      dialect.dropRelation('table', input.staging, { ifExists: true }),
    ],
  };
}

/**
 * Where dbt writes a snapshot's compiled SQL: target/compiled/<project>/<its file> when the file holds the
 * snapshot of its own name (dbt 1.10 and 1.11), else <its file>/<name>.sql (dbt's fix for several blocks in one file).
 */
export function snapshotCompiledPath(project: Project, node: SnapshotNode): string {
  const file = node.file.path;
  const stem = file.replace(/^.*\//, '').replace(/\.[^.]*$/, '');
  const relative = stem === node.name && file.endsWith('.sql') ? file : `${file}/${node.name}.sql`;
  return join(project.root, project.paths.target, 'compiled', project.name, relative);
}

export function writeSnapshotCompiled(project: Project, compiled: CompiledSnapshot): void {
  writeArtifact(project.root, snapshotCompiledPath(project, compiled.node), `${compiled.sql}\n`);
}
