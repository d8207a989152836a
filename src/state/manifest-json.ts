import { DBT_VERSION, MINI_DBT_VERSION } from '../invocation/tool-version.js';
import { engine } from '../engine/current-engine.js';
import { macrosJson } from './macros-json.js';
import { exposureId } from '../parse/exposure-nodes.js';
import { modelAccess } from '../parse/model-access.js';
import { unitTestJson } from './unit-test-json.js';
import { nowIso } from '../clock.js';
import type { AnalysisNode, Manifest, ManifestNode, SnapshotNode } from '../compile/manifest.js';
import type { Graph } from '../graph/graph-node.js';
import { testNodeJson } from './test-node-json.js';
import { relationDatabase } from './relation-database.js';
import { sqliteWarehouseFiles } from './warehouse-files.js';
import type { ColumnProperties } from '../project/project.js';
import { docBlockRefs } from '../compile/doc-block-refs.js';
import { seedChecksum, textChecksum } from './file-checksum.js';
import { constraintJson, contractJson } from './contract-json.js';
import { nodeConfigJson } from './node-config-json.js';

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The fields every relation node of dbt's manifest has. */
function relationJson(node: ManifestNode | SnapshotNode, name: string, manifest: Manifest): Record<string, unknown> {
  const database = relationDatabase(manifest.project.target);
  return {
    unique_id: node.uniqueId,
    name,
    resource_type: node.resourceType,
    package_name: node.fqn[0] ?? manifest.project.name,
    fqn: node.fqn,
    alias: node.alias,
    schema: node.schema,
    database: database.name,
    config: nodeConfigJson(node.resourceType, node.config),
    tags: Array.isArray(node.config.tags) ? node.config.tags : [],
    // dbt-sqlite's: schema-qualified, no database; dbt-postgres's: the database first.
    relation_name: `${database.qualifies ? `${quoted(database.name)}.` : ''}${quoted(node.schema)}.${quoted(node.alias)}`,
  };
}

/** The descriptions as written (before doc() was rendered): what dbt's `doc_blocks` are read from. */
interface Written {
  readonly description?: string;
  readonly columns?: readonly ColumnProperties[];
}

/** dbt's `doc_blocks`: the docs blocks a description names with doc(). */
const docBlocks = (manifest: Manifest, description: string | undefined) => docBlockRefs(description, manifest.docs ?? new Map(), manifest.project.name);

/** Columns as dbt's manifest keys them, with their (rendered) descriptions. */
const columnsJson = (manifest: Manifest, columns: readonly ColumnProperties[] = [], written?: Written) =>
  Object.fromEntries(columns.map((c) => [c.name, {
    name: c.name, description: c.description ?? '', data_type: c.dataType ?? null,
    constraints: (c.constraints ?? []).map((k) => constraintJson(k, 'column')), quote: c.quote ?? null,
    doc_blocks: docBlocks(manifest, written?.columns?.find((w) => w.name === c.name)?.description),
  }]));

/** A node's description with its doc_blocks and columns: `written` is the same entry as the project file had it. */
const describedJson = (manifest: Manifest, described: Written | undefined, written: Written | undefined) => ({
  description: described?.description ?? '',
  doc_blocks: docBlocks(manifest, written?.description),
  columns: columnsJson(manifest, described?.columns, written),
});

function nodeJson(node: ManifestNode, manifest: Manifest): Record<string, unknown> {
  const common = relationJson(node, node.resourceType === 'source' ? node.table.tableName : node.resourceType === 'model' ? node.file.version?.modelName ?? node.name : node.name, manifest);
  if (node.resourceType === 'model') {
    const version = node.file.version;
    return {
      ...common,
      // dbt's model versions: every model node has the keys, null when unversioned.
      version: version?.v ?? null,
      latest_version: version?.latest ?? null,
      deprecation_date: version?.deprecationDate ?? node.properties?.deprecationDate ?? null,
      // dbt's time_spine: null unless the model's properties declare one.
      time_spine: node.properties?.timeSpine ?? null,
      // dbt's model access (protected when unset) and group (null when none).
      access: modelAccess(node.config),
      group: typeof node.config.group === 'string' ? node.config.group : null,
      path: node.file.path.split('/').slice(1).join('/'),
      original_file_path: node.file.path,
      checksum: textChecksum(node.file.rawSql),
      ...describedJson(manifest, node.properties, manifest.project.modelProperties.get(node.name)),
      ...contractJson(node),
      depends_on: { macros: [], nodes: node.dependsOn },
      refs: node.refs.map((name) => refJson(manifest, name)),
      sources: node.sources,
      raw_code: node.file.rawSql,
      language: 'sql',
    };
  }
  if (node.resourceType === 'seed') {
    return {
      ...common, path: node.file.path.split('/').slice(1).join('/'), original_file_path: node.file.path, checksum: seedChecksum(node.file.absPath, node.file.path),
      ...describedJson(manifest, node.properties, manifest.project.seedProperties.get(node.name)), depends_on: { macros: [], nodes: [] },
    };
  }
  const loadedAtField = node.settings.loadedAtField ?? node.config.loaded_at ?? null;
  // dbt's FreshnessThreshold: an unset threshold is {count: null, period: null}; no criteria is null.
  const freshness = node.settings.freshness === null ? null : {
    warn_after: node.settings.freshness.warnAfter ?? { count: null, period: null },
    error_after: node.settings.freshness.errorAfter ?? { count: null, period: null },
    filter: node.settings.freshness.filter,
  };
  return {
    ...common,
    // dbt 1.10's source config carries the freshness and loaded_at_field the source's table was given (no freshness: the empty threshold).
    config: { ...common.config as Record<string, unknown>, ...(freshness === null ? {} : { freshness }), loaded_at_field: loadedAtField, loaded_at_query: node.settings.loadedAtQuery ?? null },
    source_name: node.table.sourceName,
    // dbt's source_description and loader: the source's own (empty when it has none).
    source_description: node.table.sourceDescription ?? '',
    loader: node.table.loader ?? '',
    identifier: node.table.identifier,
    original_file_path: node.table.location.file,
    ...describedJson(manifest, node.table, manifest.project.sources.find((t) => t.sourceName === node.table.sourceName && t.tableName === node.table.tableName)),
    loaded_at_field: loadedAtField,
    freshness,
  };
}

/** A ref as dbt records it: ref('m', v=1) is {name: m, version: 1} (inside mini-dbt its key is `m.v1`). */
function refJson(manifest: Manifest, name: string): { name: string; package: null; version: string | number | null } {
  const version = manifest.models.get(name)?.file.version;
  return version ? { name: version.modelName, package: null, version: version.v } : { name, package: null, version: null };
}

/** A snapshot as dbt's manifest has it (resource_type snapshot, its block's SQL as raw_code). */
function snapshotJson(node: SnapshotNode, manifest: Manifest): Record<string, unknown> {
  return {
    ...relationJson(node, node.name, manifest),
    path: node.file.path.split('/').slice(1).join('/'),
    original_file_path: node.file.path,
    checksum: textChecksum(node.file.rawSql),
    ...describedJson(manifest, node.definition, manifest.project.snapshots?.find((s) => s.name === node.name)),
    depends_on: { macros: [], nodes: node.dependsOn },
    refs: node.refs.map((name) => ({ name, package: null, version: null })),
    sources: node.sources,
    raw_code: node.file.rawSql,
    language: 'sql',
  };
}

/**
 * An analysis as dbt's manifest has it: resource_type analysis, `path` under
 * `analysis/` (dbt's compiled path), no relation (relation_name null).
 */
function analysisJson(node: AnalysisNode, manifest: Manifest): Record<string, unknown> {
  return {
    unique_id: node.uniqueId, name: node.name, resource_type: 'analysis', package_name: node.fqn[0] ?? manifest.project.name, fqn: node.fqn,
    alias: node.alias, schema: node.schema, database: relationDatabase(manifest.project.target).name, config: nodeConfigJson('analysis', node.config),
    tags: node.tags, relation_name: null,
    path: `analysis/${node.file.path.split('/').slice(1).join('/')}`,
    original_file_path: node.file.path,
    checksum: textChecksum(node.file.rawSql),
    ...describedJson(manifest, node.properties, node.properties),
    depends_on: { macros: [], nodes: node.dependsOn },
    refs: node.refs.map((name) => refJson(manifest, name)),
    sources: node.sources,
    raw_code: node.file.rawSql,
    language: 'sql',
  };
}

/** dbt's `groups`: each group of the property files, by group.<package>.<name>. */
function groupsJson(manifest: Manifest): Record<string, unknown> {
  return Object.fromEntries((manifest.project.groups ?? []).map((g) => {
    const pkg = g.package ?? manifest.project.name;
    const uniqueId = `group.${pkg}.${g.name}`;
    return [uniqueId, {
      name: g.name, resource_type: 'group', package_name: pkg, path: g.location.file.split('/').slice(1).join('/'), original_file_path: g.location.file,
      unique_id: uniqueId, owner: { email: null, name: null, ...g.owner }, description: g.description ?? null,
    }];
  }));
}

/** dbt's `exposures`: each enabled exposure with what it reads (its graph parents). */
function exposuresJson(manifest: Manifest, graph: Graph): Record<string, unknown> {
  const project = manifest.project.name;
  const out: Record<string, unknown> = {};
  for (const e of manifest.project.exposures ?? []) {
    const uniqueId = exposureId(e, project);
    const node = graph.nodes.get(uniqueId);
    if (!node) continue;
    out[uniqueId] = {
      name: e.name, resource_type: 'exposure', package_name: e.package ?? project, path: e.location.file.split('/').slice(1).join('/'), original_file_path: e.location.file,
      unique_id: uniqueId, fqn: node.fqn, type: e.type, owner: e.owner, description: e.description, label: e.label ?? null, maturity: e.maturity ?? null,
      meta: e.meta, tags: e.tags, config: node.config ?? {}, url: e.url ?? null, depends_on: { macros: [], nodes: node.dependsOn },
    };
  }
  return out;
}

/** dbt's `docs`: each `{% docs %}` block as a doc.<project>.<name> resource. */
function docsJson(manifest: Manifest): Record<string, unknown> {
  const project = manifest.project.name;
  return Object.fromEntries([...(manifest.docs?.values() ?? [])].map((d) => [`doc.${project}.${d.name}`, {
    name: d.name,
    resource_type: 'doc',
    package_name: project,
    path: d.relativePath,
    original_file_path: d.path,
    unique_id: `doc.${project}.${d.name}`,
    block_contents: d.contents,
  }]));
}

/** manifest.json's `metadata`: the only part that changes with every write (generated_at, invocation_id). */
export function manifestMetadata(manifest: Manifest, invocationId: string): Record<string, unknown> {
  return {
    dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json',
    dbt_version: DBT_VERSION,
    mini_dbt_version: MINI_DBT_VERSION,
    generated_at: nowIso(),
    invocation_id: invocationId,
    project_name: manifest.project.name,
    adapter_type: engine.name,
    // SQLite: the files its schemas are in, for a later --defer reading this manifest as its state.
    ...(manifest.project.target.postgres ? {} : { sqlite_warehouse: sqliteWarehouseFiles(manifest.project.target, manifest.project.databasePath) }),
  };
}

/** A manifest.json in dbt's shape (nodes, sources, parent_map, child_map, disabled). */
export function manifestJson(manifest: Manifest, graph: Graph, invocationId: string): Record<string, unknown> {
  const nodes: Record<string, unknown> = {};
  const sources: Record<string, unknown> = {};
  for (const node of manifest.nodes.values()) {
    (node.resourceType === 'source' ? sources : nodes)[node.uniqueId] = nodeJson(node, manifest);
  }
  const macros = macrosJson(manifest);
  const hasMacro = (uniqueId: string) => uniqueId in macros;
  for (const test of manifest.tests.values()) nodes[test.uniqueId] = testNodeJson(test, test.fqn[0] ?? manifest.project.name, hasMacro);
  for (const snapshot of manifest.snapshots?.values() ?? []) nodes[snapshot.uniqueId] = snapshotJson(snapshot, manifest);
  for (const analysis of manifest.analyses?.values() ?? []) nodes[analysis.uniqueId] = analysisJson(analysis, manifest);
  return {
    metadata: manifestMetadata(manifest, invocationId),
    nodes,
    sources,
    docs: docsJson(manifest),
    exposures: exposuresJson(manifest, graph),
    groups: groupsJson(manifest),
    macros,
    unit_tests: Object.fromEntries([...(manifest.unitTests?.values() ?? [])].map((u) => [u.uniqueId, unitTestJson(u, manifest.project.name, manifest.models.get(u.model)?.schema ?? 'main')])),
    disabled: Object.fromEntries([...manifest.disabled.values()].map((n) => [n.uniqueId, [nodeJson(n, manifest)]])),
    parent_map: Object.fromEntries([...graph.parents].map(([k, v]) => [k, v])),
    child_map: Object.fromEntries([...graph.children].map(([k, v]) => [k, v])),
  };
}
