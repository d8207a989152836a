import type { Manifest, ManifestNode, SnapshotNode } from '../compile/manifest.js';
import { renderModel } from '../compile/render-model.js';
import { PARSE_CONTEXT } from '../invocation/run-context.js';
import { parseModelSettings } from '../config/model-settings.js';
import { buildMode, rendersIncremental } from '../plan/build-mode.js';
import { renderTest } from '../data-tests/render-test.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import type { Graph } from '../graph/graph-node.js';
import { nowIso } from '../clock.js';
import type { ColumnProperties } from '../project/project.js';
import type { DocsColumn, DocsNode, DocsSite, DocsTest } from './docs-data.js';
import { layoutGraph } from './layout-graph.js';
import { lastNodeRun, partitionWrites } from './ledger-history.js';
import { stalePartitions } from './stale-partitions-hook.js';
import { snapshotHistory } from './snapshot-history.js';

export interface CollectDocsInput {
  readonly manifest: Manifest;
  readonly graph: Graph;
  readonly db?: Warehouse;
  /** Data test statuses of the last run (target/run_results.json), by unique id. */
  readonly testStatuses: ReadonlyMap<string, string>;
  /** Render compiled SQL (default true). */
  readonly compile?: boolean;
}

const errorText = (err: unknown) => `-- could not compile: ${(err instanceof Error ? err.message : String(err)).split('\n').join('\n-- ')}`;

function columnsOf(db: Warehouse | undefined, node: { readonly alias: string; readonly schema: string }, declared: readonly ColumnProperties[], tests: readonly DocsTest[]): DocsColumn[] {
  const live = db && relationKind(db, node.alias, node.schema) ? relationColumns(db, node.alias, { schema: node.schema }) : [];
  const names = [...live.map((c) => c.name), ...declared.map((c) => c.name).filter((n) => !live.some((c) => c.name === n))];
  return names.map((name) => {
    const yml = declared.find((c) => c.name === name);
    return {
      name,
      type: live.find((c) => c.name === name)?.type || yml?.dataType || null,
      description: yml?.description ?? '',
      tests: tests.filter((t) => t.column === name).map((t) => t.name),
    };
  });
}

/** Everything the docs page shows, laid out: nodes, edges, SQL, columns, tests, ledger history. */
export function collectDocs(input: CollectDocsInput): DocsSite {
  const { manifest, graph, db } = input;
  const compile = input.compile ?? true;
  const testsOf = (id: string): DocsTest[] =>
    [...manifest.tests.values()]
      .filter((t) => (t.attachedTo ?? t.dependsOn[0]) === id)
      .map((t) => ({ id: t.uniqueId, name: t.name, column: t.columnName ?? null, status: input.testStatuses.get(t.uniqueId) ?? null }));
  const nodes: DocsNode[] = [];
  const place = { x: 0, y: 0, width: 0, height: 0 };
  const common = (n: ManifestNode | SnapshotNode) => ({ id: n.uniqueId, name: n.name, resourceType: n.resourceType, config: n.config, dependsOn: graph.parents.get(n.uniqueId) ?? [], ...place });
  for (const n of manifest.nodes.values()) {
    const tests = testsOf(n.uniqueId);
    if (n.resourceType === 'model') {
      let compiledSql: string | null = null;
      if (compile) {
        try {
          // Rendered as `run` would render it now (is_incremental() from the build mode).
          const existing = db ? relationKind(db, n.alias, n.schema) : null;
          const mode = buildMode({ node: n, existing, context: { ...PARSE_CONTEXT, vars: manifest.vars } });
          compiledSql = renderModel(manifest, n, { db, existing, incremental: rendersIncremental(mode) }).sql;
        } catch (err) {
          compiledSql = errorText(err);
        }
      }
      nodes.push({
        ...common(n), kind: n.settings.materialized, path: n.file.path, description: n.properties?.description ?? '',
        columns: columnsOf(db, n, n.properties?.columns ?? [], tests), tests, rawSql: n.file.rawSql, compiledSql,
        lastRun: lastNodeRun(db, n.uniqueId),
        partitions: n.settings.materialized === 'incremental' ? partitionWrites(db, n.name) : null,
        stale: stalePartitions(db, manifest, graph, n),
      });
    } else if (n.resourceType === 'seed') {
      nodes.push({
        ...common(n), kind: 'seed', path: n.file.path, description: n.properties?.description ?? '',
        columns: columnsOf(db, n, n.properties?.columns ?? [], tests), tests, rawSql: null, compiledSql: null,
        lastRun: lastNodeRun(db, n.uniqueId), partitions: null, stale: null,
      });
    } else {
      nodes.push({
        ...common(n), kind: 'source', path: n.table.location.file, description: n.table.description ?? '',
        columns: columnsOf(db, n, n.table.columns, tests), tests, rawSql: null, compiledSql: null, lastRun: null, partitions: null, stale: null,
      });
    }
  }
  for (const n of manifest.snapshots?.values() ?? []) {
    const tests = testsOf(n.uniqueId);
    let compiledSql: string | null = null;
    if (compile) {
      try {
        // The query the snapshot reads, rendered as its run renders it: the body as a model's.
        compiledSql = renderModel(manifest, { ...n, resourceType: 'model', settings: parseModelSettings({ materialized: 'table' }) }, { db, incremental: false }).sql;
      } catch (err) {
        compiledSql = errorText(err);
      }
    }
    nodes.push({
      ...common(n), kind: 'snapshot', path: n.file.path, description: n.definition.description ?? '',
      columns: columnsOf(db, n, n.definition.columns ?? [], tests), tests, rawSql: n.file.rawSql, compiledSql,
      lastRun: lastNodeRun(db, n.uniqueId), partitions: null, stale: null, history: snapshotHistory(db, n),
    });
  }
  for (const t of manifest.tests.values()) {
    let compiledSql: string | null = null;
    if (compile) {
      try {
        compiledSql = renderTest(manifest, t, { db });
      } catch (err) {
        compiledSql = errorText(err);
      }
    }
    const status = input.testStatuses.get(t.uniqueId);
    nodes.push({
      id: t.uniqueId, name: t.name, resourceType: 'test', kind: 'test', path: t.path, description: t.description ?? '', columns: [], tests: [],
      config: t.config, rawSql: t.rawSql, compiledSql, dependsOn: t.dependsOn,
      lastRun: status ? { status, mode: 'test', reason: null, completedAt: '', rowsDeleted: 0, rowsInserted: 0, message: null, invocationId: '' } : null,
      partitions: null, stale: null, ...place,
    });
  }
  const links = nodes.flatMap((n) => n.dependsOn.map((from) => ({ from, to: n.id })));
  const { edges, width, height } = layoutGraph(nodes, links);
  const overview = manifest.docs?.get('__overview__')?.contents ?? null;
  return { project: manifest.project.name, generatedAt: nowIso(), database: manifest.project.databasePath, overview, width, height, nodes, edges };
}
