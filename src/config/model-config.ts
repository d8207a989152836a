import { didYouMeanSuffix } from '../errors/did-you-mean.js';

/** The materializations mini-dbt knows by name (the strategies are the registry's: src/materialize/incremental/strategy-registry.ts). */
export const MATERIALIZATIONS = ['view', 'table', 'incremental', 'ephemeral'] as const;
export type Materialization = (typeof MATERIALIZATIONS)[number];

export const ON_SCHEMA_CHANGE = ['ignore', 'fail', 'append_new_columns', 'sync_all_columns'] as const;
export type OnSchemaChange = (typeof ON_SCHEMA_CHANGE)[number];

/**
 * The warning an incremental run prints for an on_schema_change dbt does not know, or
 * undefined. dbt does not refuse it: it logs "Invalid value for on_schema_change" and
 * uses ignore, so a typo silently drops new columns; the note names the closest value.
 */
export function invalidOnSchemaChangeNote(config: Readonly<Record<string, unknown>>): string | undefined {
  const value = config.on_schema_change;
  if (value === undefined || value === null || (ON_SCHEMA_CHANGE as readonly unknown[]).includes(value)) return undefined;
  return `invalid on_schema_change '${String(value)}'; valid: ${ON_SCHEMA_CHANGE.join(', ')}.${didYouMeanSuffix(String(value), ON_SCHEMA_CHANGE)} Using ignore, as dbt does: new model columns are not written`;
}

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
