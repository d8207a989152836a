import { versionAlias } from '../project/model-version.js';
import type { ListedNode } from '../api/list-nodes.js';
import { nodeConfigJson } from '../state/node-config-json.js';

/** dbt's `ls --output json` keys when --output-keys is not given (its ListTask.ALLOWED_KEYS). */
const DEFAULT_KEYS = new Set(['alias', 'name', 'package_name', 'depends_on', 'tags', 'config', 'resource_type', 'source_name', 'original_file_path', 'unique_id']);

/** Resource types whose config dbt writes with every key of its config class (exposures and unit tests keep theirs). */
const CONFIGURED: ReadonlySet<string> = new Set(['model', 'seed', 'snapshot', 'test', 'source', 'analysis']);

/**
 * One node as a line of `ls --output json`: the fields of dbt's node
 * dictionary in dbt's order (name, resource_type, package_name,
 * original_file_path, unique_id, ..., config, tags, depends_on), keeping the
 * default keys, or exactly the keys asked for with --output-keys (a key the
 * node does not have is left out, as in dbt). A source is named by its table
 * and carries its source_name; a unit test has no alias; depends_on lists
 * the nodes it reads.
 */
export function lsJsonLine(n: ListedNode, keys?: ReadonlySet<string>): string {
  const source = n.resourceType === 'source';
  const dot = n.name.indexOf('.');
  // A versioned model: named after its model (fqn <project>...<name>.v<v>), its default alias <name>_v<v>.
  const model = n.version !== undefined ? n.fqn[n.fqn.length - 2] ?? n.name : undefined;
  // dbt's node config: its defaults where the project set nothing (enabled, materialized, on_schema_change...), as manifest.json has it.
  const config = CONFIGURED.has(n.resourceType) ? nodeConfigJson(n.resourceType, n.config) : n.config;
  const alias = typeof n.config.alias === 'string' && n.config.alias !== '' ? n.config.alias : model !== undefined ? versionAlias({ modelName: model, v: n.version! }) : n.name;
  const fields: [string, unknown][] = [
    ['name', source && dot >= 0 ? n.name.slice(dot + 1) : model ?? n.name],
    ['resource_type', n.resourceType],
    ['package_name', n.packageName],
    ['original_file_path', n.path],
    ['unique_id', n.uniqueId],
    ['fqn', n.fqn],
    ...(source ? [['source_name', n.name.slice(0, Math.max(dot, 0))] as [string, unknown], ['tags', n.tags] as [string, unknown], ['config', config] as [string, unknown]]
      : [...(n.resourceType === 'unit_test' || n.resourceType === 'exposure' ? [] : [['alias', alias] as [string, unknown]]), ['config', config] as [string, unknown], ['tags', n.tags] as [string, unknown], ['depends_on', { nodes: n.dependsOn }] as [string, unknown]]),
    ...(n.resourceType === 'model' ? [['version', n.version ?? null] as [string, unknown], ['latest_version', n.latestVersion ?? null] as [string, unknown]] : []),
  ];
  const wanted = keys ?? DEFAULT_KEYS;
  return JSON.stringify(Object.fromEntries(fields.filter(([k]) => wanted.has(k))));
}

/** --output-keys as dbt takes it: one quoted list ("name resource_type") or several values, split on spaces and commas. */
export function outputKeys(given: readonly string[] | undefined): Set<string> | undefined {
  if (given === undefined) return undefined;
  return new Set(given.flatMap((g) => g.split(/[\s,]+/)).filter((k) => k !== ''));
}
