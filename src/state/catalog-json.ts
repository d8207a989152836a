import { DBT_VERSION } from '../invocation/tool-version.js';
import { nowIso } from '../clock.js';
import type { Manifest, ManifestNode, SnapshotNode } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { relationDatabase } from './relation-database.js';

interface CatalogTable {
  readonly metadata: { readonly type: string; readonly schema: string; readonly name: string; readonly database: string; readonly comment: null; readonly owner: null };
  readonly columns: Record<string, { readonly type: string; readonly index: number; readonly name: string; readonly comment: null }>;
  readonly stats: Record<string, { readonly id: string; readonly label: string; readonly value: boolean; readonly include: boolean; readonly description: string }>;
  readonly unique_id: string;
}

/** One relation as dbt's catalog describes it, or undefined when it is not in the warehouse. */
function catalogTable(db: Warehouse, node: ManifestNode | SnapshotNode, database: string): CatalogTable | undefined {
  const kind = relationKind(db, node.alias, node.schema);
  if (kind === null) return undefined;
  const columns = relationColumns(db, node.alias, { schema: node.schema });
  return {
    metadata: { type: kind, schema: node.schema, name: node.alias, database, comment: null, owner: null },
    columns: Object.fromEntries(columns.map((c, i) => [c.name, { type: c.type, index: i + 1, name: c.name, comment: null }])),
    // SQLite keeps no table statistics dbt would show: dbt's "no stats" entry.
    stats: { has_stats: { id: 'has_stats', label: 'Has Stats?', value: false, include: false, description: 'Indicates whether there are statistics for this table' } },
    unique_id: node.uniqueId,
  };
}

/**
 * target/catalog.json, as `dbt docs generate` writes it: every model, seed,
 * snapshot and source relation the warehouse holds, with its columns (name,
 * declared type, position; a snapshot's dbt_scd_id, dbt_updated_at,
 * dbt_valid_from, dbt_valid_to after its query's). Ephemeral models and
 * relations not built yet are absent, as in dbt's.
 */
export function catalogJson(manifest: Manifest, db: Warehouse | undefined, invocationId: string): Record<string, unknown> {
  const nodes: Record<string, CatalogTable> = {};
  const sources: Record<string, CatalogTable> = {};
  const database = relationDatabase(manifest.project.target).name;
  for (const node of db ? manifest.nodes.values() : []) {
    if (node.resourceType === 'model' && node.settings.materialized === 'ephemeral') continue;
    const table = catalogTable(db!, node, database);
    if (table) (node.resourceType === 'source' ? sources : nodes)[node.uniqueId] = table;
  }
  for (const snapshot of db ? manifest.snapshots?.values() ?? [] : []) {
    const table = catalogTable(db!, snapshot, database);
    if (table) nodes[snapshot.uniqueId] = table;
  }
  return {
    metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/catalog/v1.json', dbt_version: DBT_VERSION, generated_at: nowIso(), invocation_id: invocationId, env: {} },
    nodes,
    sources,
    errors: null,
  };
}
