import type { ConfigMap } from '../project/project.js';

/** Config keys that may appear without '+' in a project file's folder tree. */
const CONFIG_KEYS = new Set([
  'materialized', 'incremental_strategy', 'unique_key', 'on_schema_change', 'full_refresh', 'enabled', 'alias',
  'schema', 'database', 'tags', 'pre_hook', 'post_hook', 'pre-hook', 'post-hook', 'indexes', 'partition_by',
  'event_time', 'loaded_at', 'batch_size', 'lookback', 'begin', 'column_types', 'delimiter', 'encoding', 'quote_columns',
  'meta', 'docs', 'persist_docs', 'incremental_predicates', 'merge_update_columns', 'merge_exclude_columns',
  'sql_header', 'contract', 'grants', 'unique_key_nulls', 'full_refresh_ignored', 'fill_gaps', 'rows_outside_batch', 'severity', 'store_failures', 'warn_if', 'error_if', 'where', 'limit',
  'access', 'group',
]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function configsAt(level: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(level)) {
    if (key.startsWith('+') || (CONFIG_KEYS.has(key) && !isRecord(value)) || (CONFIG_KEYS.has(key) && key === 'meta')) {
      out[key] = value;
    }
  }
  return out;
}

/**
 * The config a project file gives one node by its own name, under its folders (dbt matches the whole
 * fqn: `models: {shop: {marts: {daily_revenue: {+materialized: table}}}}`), or undefined.
 */
export function nodeConfigLayer(tree: ConfigMap, projectName: string, folders: readonly string[], name: string, scopedOnly = false): ConfigMap | undefined {
  const scoped = (tree as Record<string, unknown>)[projectName];
  if (scopedOnly && !isRecord(scoped)) return undefined;
  let level: unknown = isRecord(scoped) ? scoped : tree;
  for (const folder of folders) {
    level = isRecord(level) ? level[folder] : undefined;
    if (!isRecord(level)) return undefined;
  }
  const own = isRecord(level) ? level[name] : undefined;
  return isRecord(own) ? configsAt(own) : undefined;
}

/**
 * The folder-level config layers that apply to a node, shallowest first.
 * The tree may start with the project name (dbt style) or directly with folders.
 */
export function folderConfigLayers(tree: ConfigMap, projectName: string, folders: readonly string[], scopedOnly = false): ConfigMap[] {
  const layers: ConfigMap[] = [configsAt(tree as Record<string, unknown>)];
  let level: unknown = tree;
  const scoped = (tree as Record<string, unknown>)[projectName];
  if (isRecord(scoped)) {
    layers.push(configsAt(scoped));
    level = scoped;
  } else if (scopedOnly) {
    return layers;
  }
  for (const folder of folders) {
    const next = isRecord(level) ? level[folder] : undefined;
    if (!isRecord(next)) break;
    layers.push(configsAt(next));
    level = next;
  }
  return layers;
}

/**
 * The project-file config layers of a node of an installed package, as dbt
 * merges them: the package's own dbt_project.yml first, then the root
 * project's tree under the package's name (`models: {dbt_utils: {...}}`),
 * which wins; in each, the folders shallowest first, then the node's own entry.
 */
export function packageConfigLayers(own: ConfigMap, root: ConfigMap, pkg: string, folders: readonly string[], name: string): ConfigMap[] {
  return [
    ...folderConfigLayers(own, pkg, folders, true),
    nodeConfigLayer(own, pkg, folders, name, true) ?? {},
    ...folderConfigLayers(root, pkg, folders, true),
    nodeConfigLayer(root, pkg, folders, name, true) ?? {},
  ];
}
