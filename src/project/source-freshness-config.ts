/**
 * dbt's source `freshness` and `loaded_at_field`, merged as dbt merges them
 * (dbt-core's merge_freshness): at each level (the source, then its table) a
 * `config: freshness:` is merged over the older top-level `freshness:`, then
 * the table's over the source's. `warn_after` / `error_after` merge key by
 * key: an omitted or empty one keeps the source's, `null` turns it off;
 * `freshness: null` turns the table's check off. The result is written into
 * the table's config as `freshness` ({warn_after, error_after, filter}, or
 * null), `loaded_at_field` and `loaded_at_query` (null when unset), where config/model-settings.ts
 * reads them; config/source-project-config.ts then lays the project file's `sources:` config under them.
 */

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A threshold as the yml gives it: undefined (not given), null (turned off) or a {count, period} mapping. */
type Threshold = Raw | null | undefined;
/** A freshness block: undefined (not given), null (turned off) or {warn_after, error_after, filter}. */
type Freshness = { warn_after?: Threshold; error_after?: Threshold; filter?: unknown } | null | undefined;

export const FRESHNESS_PERIODS = ['minute', 'hour', 'day'] as const;

/** Report a bad value at a path below the entry (the yml's file:line). */
export type FreshnessProblem = (message: string, path: readonly (string | number)[]) => never;

const isEmptyThreshold = (t: Threshold): boolean => t === undefined || (isRecord(t) && t.count === undefined && t.period === undefined);

function mergeThreshold(base: Threshold, update: Threshold): Threshold {
  if (update === null) return null;
  if (isEmptyThreshold(update)) return base;
  if (isRecord(base) && isRecord(update)) return { ...base, ...Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined && v !== null)) };
  return update;
}

function mergeFreshness(base: Freshness, update: Freshness): Freshness {
  if (update === undefined) return base;
  if (update === null) return null;
  if (base === undefined || base === null) return update;
  return {
    warn_after: mergeThreshold(base.warn_after, update.warn_after),
    error_after: mergeThreshold(base.error_after, update.error_after),
    filter: update.filter ?? base.filter,
  };
}

function freshnessAt(value: unknown, path: readonly (string | number)[], problem: FreshnessProblem): Freshness {
  if (value === undefined || value === null) return value;
  if (!isRecord(value)) problem("'freshness' must be a mapping with warn_after and/or error_after (or null)", path);
  for (const key of ['warn_after', 'error_after'] as const) {
    const t = value[key];
    if (t === undefined || t === null) continue;
    if (!isRecord(t)) problem(`'freshness.${key}' must be a mapping like {count: 12, period: hour}`, [...path, key]);
    if (isEmptyThreshold(t)) continue;
    if (typeof t.count !== 'number' || !Number.isInteger(t.count) || t.count < 0) {
      problem(`'freshness.${key}.count' must be a whole number, got ${JSON.stringify(t.count ?? null)}`, [...path, key]);
    }
    if (!(FRESHNESS_PERIODS as readonly unknown[]).includes(t.period)) {
      problem(`'freshness.${key}.period' must be one of ${FRESHNESS_PERIODS.join(', ')}, got ${JSON.stringify(t.period ?? null)}`, [...path, key]);
    }
  }
  return value as Freshness;
}

/** One level's freshness: its `config: freshness:` merged over its top-level `freshness:`. */
function levelFreshness(entry: Raw, config: Raw, problem: FreshnessProblem): Freshness {
  const top = 'freshness' in entry ? freshnessAt(entry.freshness, ['freshness'], problem) : undefined;
  if (!('freshness' in config)) return top;
  return mergeFreshness(top, freshnessAt(config.freshness, ['config', 'freshness'], problem));
}

const thresholdOut = (t: Threshold): Raw | null => (isRecord(t) && !isEmptyThreshold(t) ? { count: t.count, period: t.period } : null);

/** A value that counts as set, as dbt's `x or config.get(x)` reads it (null, '' and absent do not). */
const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const either = (entry: Raw, config: Raw, key: string): unknown => (given(entry[key]) ? entry[key] : given(config[key]) ? config[key] : undefined);

/** dbt refuses an empty loaded_at_field at the top level of a source or table (E137). */
function refuseEmptyField(entry: Raw, problem: FreshnessProblem): void {
  if (entry.loaded_at_field === '') problem('loaded_at_field cannot be an empty string.', ['loaded_at_field']);
}

/**
 * dbt 1.10's loaded_at_field and loaded_at_query of one table (dbt-core's
 * calculate_loaded_at_field_query_from_raw_target): each read from the top level or `config:`, the
 * table's winning over the source's; a table that names loaded_at_field (even as null) takes neither
 * from the source; both at one level is an error (E136). When both end up set (a field from the source,
 * a query on the table), the query is what source freshness runs.
 */
function loadedAt(source: Raw, sourceConfig: Raw, table: Raw, tableConfig: Raw, problems: { readonly source: FreshnessProblem; readonly table: FreshnessProblem }): { field: unknown; query: unknown } {
  refuseEmptyField(source, problems.source);
  refuseEmptyField(table, problems.table);
  // dbt's loaded_at_field_present: the key at the table's top level (null included), or a value under its config.
  const tablePresent = 'loaded_at_field' in table || given(tableConfig.loaded_at_field);
  if (tablePresent && given(either(table, tableConfig, 'loaded_at_query'))) {
    problems.table('Cannot specify both loaded_at_field and loaded_at_query at table level.', ['loaded_at_query' in table ? 'loaded_at_query' : 'config']);
  }
  if (given(either(source, sourceConfig, 'loaded_at_field')) && given(either(source, sourceConfig, 'loaded_at_query'))) {
    problems.source('Cannot specify both loaded_at_field and loaded_at_query at source level.', ['loaded_at_query' in source ? 'loaded_at_query' : 'config']);
  }
  const tableSetsField = tablePresent || given(table.loaded_at_field) || given(tableConfig.loaded_at_field);
  const field = tableSetsField ? either(table, tableConfig, 'loaded_at_field') : either(source, sourceConfig, 'loaded_at_field');
  const tableQuery = either(table, tableConfig, 'loaded_at_query');
  const query = tableQuery !== undefined ? tableQuery : tablePresent ? undefined : either(source, sourceConfig, 'loaded_at_query');
  return { field, query };
}

/**
 * The `freshness`, `loaded_at_field` and `loaded_at_query` config keys of one source table.
 * `problem` gets the path below the source (`sourcePath`) or the table (`tablePath`).
 */
export function sourceFreshnessConfig(
  source: Raw, sourceConfig: Raw, table: Raw, tableConfig: Raw,
  problems: { readonly source: FreshnessProblem; readonly table: FreshnessProblem },
): { freshness?: Raw | null; loaded_at_field?: unknown; loaded_at_query?: unknown } {
  const fromSource = levelFreshness(source, sourceConfig, problems.source);
  const fromTable = levelFreshness(table, tableConfig, problems.table);
  const merged = mergeFreshness(fromSource, fromTable);
  const out: { freshness?: Raw | null; loaded_at_field?: unknown; loaded_at_query?: unknown } = {};
  if (merged === null) out.freshness = null;
  else if (merged !== undefined) out.freshness = { warn_after: thresholdOut(merged.warn_after), error_after: thresholdOut(merged.error_after), filter: merged.filter ?? null };
  const { field, query } = loadedAt(source, sourceConfig, table, tableConfig, problems);
  // Always written (null when unset): a table's own settings replace what the project file says, as in dbt.
  out.loaded_at_field = field ?? null;
  out.loaded_at_query = query ?? null;
  return out;
}

/** A project file's `+freshness` value checked as the yml's is (its problems point at the project file). */
export function projectFreshness(value: unknown, problem: FreshnessProblem): Raw | null | undefined {
  const checked = freshnessAt(value, [], problem);
  if (checked === undefined || checked === null) return checked;
  return { warn_after: thresholdOut(checked.warn_after), error_after: thresholdOut(checked.error_after), filter: checked.filter ?? null };
}
