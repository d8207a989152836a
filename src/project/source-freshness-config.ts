/**
 * dbt's source `freshness` and `loaded_at_field`, merged as dbt merges them
 * (dbt-core's merge_freshness): at each level (the source, then its table) a
 * `config: freshness:` is merged over the older top-level `freshness:`, then
 * the table's over the source's. `warn_after` / `error_after` merge key by
 * key: an omitted or empty one keeps the source's, `null` turns it off;
 * `freshness: null` turns the table's check off. The result is written into
 * the table's config as `freshness` ({warn_after, error_after, filter}, or
 * null) and `loaded_at_field`, where config/model-settings.ts reads them.
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

/**
 * The `freshness` and `loaded_at_field` config keys of one source table.
 * `problem` gets the path below the source (`sourcePath`) or the table (`tablePath`).
 */
export function sourceFreshnessConfig(
  source: Raw, sourceConfig: Raw, table: Raw, tableConfig: Raw,
  problems: { readonly source: FreshnessProblem; readonly table: FreshnessProblem },
): { freshness?: Raw | null; loaded_at_field?: unknown } {
  const fromSource = levelFreshness(source, sourceConfig, problems.source);
  const fromTable = levelFreshness(table, tableConfig, problems.table);
  const merged = mergeFreshness(fromSource, fromTable);
  const out: { freshness?: Raw | null; loaded_at_field?: unknown } = {};
  if (merged === null) out.freshness = null;
  else if (merged !== undefined) out.freshness = { warn_after: thresholdOut(merged.warn_after), error_after: thresholdOut(merged.error_after), filter: merged.filter ?? null };
  const field = tableConfig.loaded_at_field ?? table.loaded_at_field ?? sourceConfig.loaded_at_field ?? source.loaded_at_field;
  if (field !== undefined && field !== null) out.loaded_at_field = field;
  return out;
}
