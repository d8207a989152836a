import { configHooks, type Hook } from './hook-config.js';
import { freshnessCriteria, type FreshnessCriteria } from './freshness-criteria.js';
import { tryParseTime, type BatchSize } from './microbatch-time.js';
import { ON_SCHEMA_CHANGE, effectiveStrategy, partitionColumnOf, uniqueKeyColumns, type Materialization, type OnSchemaChange } from './model-config.js';

type RawConfig = Readonly<Record<string, unknown>>;

/** An index a table gets: the `indexes` config (dbt-postgres style), or one a strategy needs. */
export interface IndexConfig {
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/** pre_hook / post_hook templates (rendered when the model is planned). */
export interface ModelHooks {
  readonly pre: readonly Hook[];
  readonly post: readonly Hook[];
}

/** What every model's config says, whatever its materialization. */
interface CommonSettings {
  /** partition_by: a column name, or {field: name}. */
  readonly partitionColumn?: string;
  /** unique_key as a list (dbt accepts a string or a list); empty when unset, `''` or `[]` (no key, as in dbt). */
  readonly uniqueKeyColumns: readonly string[];
  /** unique_key as configured (a project strategy macro receives it so, as in dbt). */
  readonly uniqueKey?: string | readonly string[];
  /** unique_key_nulls: 'warn' (dbt's behaviour, the default) or 'error'. */
  readonly uniqueKeyNulls: 'warn' | 'error';
  /** The full_refresh config (beats the --full-refresh flag); undefined when unset. */
  readonly fullRefresh?: boolean;
  /**
   * full_refresh_ignored: what --full-refresh does to an incremental model with
   * full_refresh: false: 'warn' (dbt's behaviour, the default: it runs
   * incrementally, with a warning) or 'error' (the command is refused).
   */
  readonly fullRefreshIgnored: 'warn' | 'error';
  /** event_time: the column a downstream microbatch model's ref() filters on (required by microbatch itself). */
  readonly eventTime?: string;
  /** loaded_at: when each row landed (lateness, staleness). */
  readonly loadedAt?: string;
  readonly indexes: readonly IndexConfig[];
  readonly hooks: ModelHooks;
  readonly tags: readonly string[];
  /**
   * sql_header (dbt's config, or set_sql_header's block): SQL run just before the statement that
   * creates the relation, in the same transaction; the project's own text, which may hold several statements.
   */
  readonly sqlHeader?: string;
}

/** Fields only an incremental model has, absent (so readable as undefined) on the others. */
interface NotIncremental {
  readonly strategy?: undefined;
  readonly batchSize?: undefined;
  readonly begin?: undefined;
  readonly lookback?: undefined;
}

export interface TableSettings extends CommonSettings, NotIncremental {
  readonly materialized: 'table';
}

export interface ViewSettings extends CommonSettings, NotIncremental {
  readonly materialized: 'view';
}

export interface EphemeralSettings extends CommonSettings, NotIncremental {
  readonly materialized: 'ephemeral';
}

interface IncrementalCommon extends CommonSettings {
  readonly materialized: 'incremental';
  /** The effective strategy: incremental_strategy, else delete+insert with a unique_key and append without (dbt-postgres). */
  readonly strategy: string;
  /** incremental_strategy was unset or 'default': `strategy` was chosen from unique_key. */
  readonly defaultStrategy: boolean;
  readonly onSchemaChange: OnSchemaChange;
  /** incremental_predicates (or predicates): a bare string is one predicate; blank ones dropped. */
  readonly incrementalPredicates: readonly string[];
  /** merge: the columns an upsert overwrites, or leaves alone (never both). */
  readonly mergeUpdateColumns?: readonly string[];
  readonly mergeExcludeColumns?: readonly string[];
}

/** An incremental model under any strategy but microbatch (a project's own included). */
export interface IncrementalSettings extends IncrementalCommon {
  readonly batchSize?: undefined;
  readonly begin?: undefined;
  readonly lookback?: undefined;
}

/** A microbatch model: dbt's event_time, begin, batch_size and lookback (batches, default 1). */
export interface MicrobatchSettings extends IncrementalCommon {
  readonly strategy: 'microbatch';
  readonly eventTime: string;
  readonly begin: Date;
  readonly batchSize: BatchSize;
  readonly lookback: number;
  /**
   * fill_gaps (mini-dbt's opt-in, default false as in dbt): an incremental run
   * also rebuilds every batch since begin that the run ledger never recorded as built.
   */
  readonly fillGaps: boolean;
  /** rows_outside_batch: 'warn' (dbt's behaviour, the default: written, and counted) or 'error' (the batch is refused). */
  readonly rowsOutsideBatch: 'warn' | 'error';
}

/**
 * A model's config, parsed once after capture (parseModelSettings) into a
 * union on `materialized` (and, for microbatch, `strategy`: narrow with
 * isMicrobatch). `node.config` stays the raw dict: templates' config.get(),
 * manifest.json and folder-config merging read it; code reads this.
 */
export type ModelSettings = TableSettings | ViewSettings | EphemeralSettings | IncrementalSettings | MicrobatchSettings;

/** An incremental model's settings, under any strategy. */
export type IncrementalModelSettings = IncrementalSettings | MicrobatchSettings;

export function isMicrobatch(settings: ModelSettings): settings is MicrobatchSettings {
  return settings.materialized === 'incremental' && settings.strategy === 'microbatch';
}

/** A seed's config, as the code reads it (the loader checks delimiter, encoding and column_types itself, with file:line). */
export interface SeedSettings {
  readonly eventTime?: string;
  readonly loadedAt?: string;
  readonly indexes: readonly IndexConfig[];
  readonly tags: readonly string[];
  readonly delimiter?: unknown;
  readonly encoding?: unknown;
  readonly columnTypes?: unknown;
  /** dbt's quote_columns (unset: quote, as dbt); the loader checks it. */
  readonly quoteColumns?: unknown;
  /** pre_hook / post_hook, as a model's (dbt runs them around a seed's load). */
  readonly hooks: ModelHooks;
}

/** A source table's config, as the code reads it. */
export interface SourceSettings {
  readonly eventTime?: string;
  readonly loadedAt?: string;
  readonly tags: readonly string[];
  /** dbt's `loaded_at_field` (a column or SQL expression) and `freshness` criteria (null: not checked). */
  readonly loadedAtField?: string;
  /** dbt 1.10's `loaded_at_query`: a query returning the load time (Jinja, rendered when checked); it beats loadedAtField. */
  readonly loadedAtQuery?: string;
  readonly freshness: FreshnessCriteria | null;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const stringList = (v: unknown): string[] | undefined => (v === undefined || v === null ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);
/** tags: a list, or one tag (selection reads `tag:`). */
const tagList = (v: unknown): readonly string[] => (v === undefined || v === null ? NONE : Array.isArray(v) ? (v.every((t) => typeof t === 'string') ? v : v.map(String)) : [String(v)]);

/** One shared empty list and hook set: most models declare no key, index or hook (fewer objects per load at 10,000 models). */
const NONE: readonly string[] = Object.freeze([]);
const NO_INDEXES: readonly IndexConfig[] = Object.freeze([]);
const NO_HOOKS: ModelHooks = Object.freeze({ pre: Object.freeze([]), post: Object.freeze([]) });

/** The `indexes` config (dbt-postgres style: [{columns: [...], unique: bool}] or [[...]]). */
export function indexConfigs(config: RawConfig): IndexConfig[] {
  const raw = config.indexes;
  if (!Array.isArray(raw)) return [];
  return raw.map((entry) => {
    if (Array.isArray(entry)) return { columns: entry.map(String), unique: false };
    if (typeof entry === 'string') return { columns: [entry], unique: false };
    const e = entry as { columns?: unknown; unique?: unknown };
    const columns = Array.isArray(e.columns) ? e.columns.map(String) : [String(e.columns)];
    return { columns, unique: e.unique === true };
  });
}

/**
 * incremental_predicates as a list (a bare string is one predicate, not a list of characters). As in
 * dbt (`config.get('predicates') or config.get('incremental_predicates')`), a non-empty `predicates` wins.
 */
function predicateList(config: RawConfig): string[] {
  const older = config.predicates;
  const raw = older !== undefined && older !== null && older !== '' && !(Array.isArray(older) && older.length === 0) ? older : config.incremental_predicates;
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String).filter((p) => p.trim() !== '');
}

/**
 * A model's settings from its merged, validated config (validateModelConfig
 * ran first; on a config it refused, the values fall back to the defaults,
 * and the load fails anyway). Cheap: it runs for every model on every load.
 */
export function parseModelSettings(config: RawConfig): ModelSettings {
  // Object literals, not spreads: spreading a dozen fields costs ~10x at 10,000 models.
  const partitionColumn = partitionColumnOf(config);
  const key = config.unique_key === undefined || config.unique_key === null || config.unique_key === '' ? NONE : uniqueKeyColumns(config);
  const uniqueKey = typeof config.unique_key === 'string' || Array.isArray(config.unique_key) ? (config.unique_key as string | readonly string[]) : undefined;
  const uniqueKeyNulls = config.unique_key_nulls === 'error' ? 'error' : 'warn';
  const fullRefresh = typeof config.full_refresh === 'boolean' ? config.full_refresh : undefined;
  const fullRefreshIgnored = config.full_refresh_ignored === 'error' ? 'error' : 'warn';
  const eventTime = str(config.event_time);
  const loadedAt = str(config.loaded_at);
  const indexes = config.indexes === undefined ? NO_INDEXES : indexConfigs(config);
  const hooks = config.pre_hook === undefined && config.post_hook === undefined ? NO_HOOKS : { pre: configHooks(config, 'pre_hook'), post: configHooks(config, 'post_hook') };
  const tags = tagList(config.tags);
  const sqlHeader = typeof config.sql_header === 'string' && config.sql_header.trim() !== '' ? config.sql_header : undefined;
  const materialized = (config.materialized ?? 'view') as Materialization;
  if (materialized !== 'incremental') {
    return { materialized, partitionColumn, uniqueKeyColumns: key, uniqueKey, uniqueKeyNulls, fullRefresh, fullRefreshIgnored, eventTime, loadedAt, indexes, hooks, tags, sqlHeader };
  }
  const strategy = effectiveStrategy(config);
  const defaultStrategy = config.incremental_strategy === undefined || config.incremental_strategy === null || config.incremental_strategy === 'default';
  // dbt: any other value is logged and treated as ignore (the plan's note says so).
  const onSchemaChange = (ON_SCHEMA_CHANGE as readonly unknown[]).includes(config.on_schema_change) ? (config.on_schema_change as OnSchemaChange) : 'ignore';
  const incrementalPredicates = predicateList(config);
  const mergeUpdateColumns = stringList(config.merge_update_columns);
  const mergeExcludeColumns = stringList(config.merge_exclude_columns);
  if (strategy !== 'microbatch') {
    return {
      materialized, partitionColumn, uniqueKeyColumns: key, uniqueKey, uniqueKeyNulls, fullRefresh, fullRefreshIgnored, eventTime, loadedAt, indexes, hooks, tags, sqlHeader,
      strategy, defaultStrategy, onSchemaChange, incrementalPredicates, mergeUpdateColumns, mergeExcludeColumns,
    };
  }
  return {
    materialized, partitionColumn, uniqueKeyColumns: key, uniqueKey, uniqueKeyNulls, fullRefresh, fullRefreshIgnored, loadedAt, indexes, hooks, tags, sqlHeader,
    strategy, defaultStrategy, onSchemaChange, incrementalPredicates, mergeUpdateColumns, mergeExcludeColumns,
    eventTime: String(config.event_time),
    begin: tryParseTime(config.begin) ?? new Date(Number.NaN),
    batchSize: config.batch_size as BatchSize,
    lookback: typeof config.lookback === 'number' ? config.lookback : 1,
    fillGaps: config.fill_gaps === true,
    rowsOutsideBatch: config.rows_outside_batch === 'error' ? 'error' : 'warn',
  };
}

/** A seed's settings from its merged config. */
export function parseSeedSettings(config: RawConfig): SeedSettings {
  return {
    eventTime: str(config.event_time),
    loadedAt: str(config.loaded_at),
    indexes: indexConfigs(config),
    tags: tagList(config.tags),
    delimiter: config.delimiter,
    encoding: config.encoding,
    columnTypes: config.column_types,
    quoteColumns: config.quote_columns,
    hooks: config.pre_hook === undefined && config.post_hook === undefined ? NO_HOOKS : { pre: configHooks(config, 'pre_hook'), post: configHooks(config, 'post_hook') },
  };
}

/** A loaded_at_field that names a column (dbt also takes an SQL expression there, which the toolkit cannot index or compare). */
const PLAIN_COLUMN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A source table's settings from its config. Its loaded_at (when rows
 * landed, for stale, lateness, backfill and replay) is the `loaded_at`
 * config, else dbt's own `loaded_at_field` (freshness's column, declared on
 * the source or the table) when it names a plain column.
 */
export function parseSourceSettings(config: RawConfig): SourceSettings {
  const field = str(config.loaded_at_field);
  return {
    eventTime: str(config.event_time), loadedAt: str(config.loaded_at) ?? (field !== undefined && PLAIN_COLUMN.test(field) ? field : undefined), tags: tagList(config.tags),
    loadedAtField: str(config.loaded_at_field), loadedAtQuery: str(config.loaded_at_query), freshness: freshnessCriteria(config.freshness),
  };
}
