/** The materializations mini-dbt knows by name (the strategies are the registry's: src/materialize/incremental/strategy-registry.ts). */
export const MATERIALIZATIONS = ['view', 'table', 'incremental', 'ephemeral'] as const;
export type Materialization = (typeof MATERIALIZATIONS)[number];

export const ON_SCHEMA_CHANGE = ['ignore', 'fail', 'append_new_columns', 'sync_all_columns'] as const;
export type OnSchemaChange = (typeof ON_SCHEMA_CHANGE)[number];

// Readers of a raw config dict, for validation and the settings parser (model-settings.ts) only:
// everything else reads node.settings (uniqueKeyColumns, partitionColumn, strategy).

/**
 * The unique_key config as a list of column names (dbt accepts a string or a list).
 * `''` and `[]` mean no key, as in dbt (its macros test `{% if unique_key %}`, and
 * both are falsy): the default strategy is then append. A blank name in a list
 * names no column either, so it is dropped.
 */
export function uniqueKeyColumns(config: Readonly<Record<string, unknown>>): string[] {
  const key = config.unique_key;
  if (key === undefined || key === null) return [];
  return (Array.isArray(key) ? key.map(String) : [String(key)]).filter((k) => k.trim() !== '');
}

/** The partition column a model declares: partition_by, a column name or {field: name}. */
export function partitionColumnOf(config: Readonly<Record<string, unknown>>): string | undefined {
  const p = config.partition_by;
  if (typeof p === 'string') return p;
  if (typeof p === 'object' && p !== null && typeof (p as { field?: unknown }).field === 'string') return (p as { field: string }).field;
  return undefined;
}

/** The strategy an incremental model uses: dbt-postgres' default is delete+insert with a key, append without. */
export function effectiveStrategy(config: Readonly<Record<string, unknown>>): string {
  const strategy = config.incremental_strategy;
  if (typeof strategy === 'string' && strategy !== 'default') return strategy;
  return uniqueKeyColumns(config).length > 0 ? 'delete+insert' : 'append';
}
