import type { Warehouse } from '../engine/open-warehouse.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import { previewValue } from '../errors/value-preview.js';
import { nearestRankPercentile, type HistogramBin } from './nearest-rank-percentile.js';
import type { TimeColumns } from './time-columns.js';

export interface LatenessOptions {
  /** The table holding the raw rows. */
  readonly relation: string;
  /** Its schema (default main). */
  readonly schema?: string;
  readonly columns: TimeColumns;
  /** How many days (or hours, with unit 'hour') back a run rewrites; rows later than this are missed. */
  readonly lookback: number;
  /** Lateness in whole days (loaded-at day minus event day; the default) or whole hours (for hourly partitions). */
  readonly unit?: LatenessUnit;
  /** Break the missed rows down by this column. */
  readonly by?: string;
}

export type LatenessUnit = 'day' | 'hour';

/**
 * Lateness, in the report's unit: every count named in days (max_days,
 * the histogram's days, required_lookback, missed.days) is in hours when
 * `unit` is 'hour'.
 */
export interface LatenessReport {
  readonly relation: string;
  readonly unit: LatenessUnit;
  readonly event_time: string;
  readonly loaded_at: string;
  /** Rows with a usable event time and loaded-at. */
  readonly rows: number;
  /** Rows whose event time or loaded-at is not a date from 1000-01-01 to 9999-12-31 (left out of everything else). */
  readonly invalid_rows: number;
  readonly max_days: number | null;
  /** The smallest lookback that misses no row: the longest lateness (0 when nothing is late). */
  readonly required_lookback: number;
  /**
   * Rows per days late, every day from the earliest to the latest (empty ones as 0) when they
   * span at most MAX_FILLED_DAYS; past that (absurd dates), only the days that have rows.
   */
  readonly histogram: HistogramBin[];
  readonly percentiles: { p50: number | null; p90: number | null; p95: number | null; p99: number | null; max: number | null };
  readonly missed: {
    readonly lookback: number;
    readonly rows: number;
    /** Distinct event days that have at least one missed row. */
    readonly days: number;
    readonly by?: string;
    readonly groups?: Record<string, number>;
  };
}

/** Days late beyond which the histogram lists only non-empty days (a row dated 1000-01-01 would make 370,000 bins). */
export const MAX_FILLED_DAYS = 1000;

/** A column's day as a Julian day number (or its hour as hours since then), NULL when it is not a date within years 1000-9999. */
function timeNumber(column: string, unit: LatenessUnit): string {
  const day = dialect.dateOf(quoteIdentifier(column));
  const number = unit === 'hour' ? `${dialect.dayNumber(day)} * 24 + ${dialect.hourOfDay(quoteIdentifier(column))}` : dialect.dayNumber(day);
  return `(case when ${day} between '1000-01-01' and '9999-12-31' then ${number} end)`;
}

/** The event's bucket for counting what a lookback misses: its day, or its day and hour. */
function bucketOf(column: string, unit: LatenessUnit): string {
  const day = dialect.dateOf(quoteIdentifier(column));
  return unit === 'hour' ? `${day} || ' ' || cast(${dialect.hourOfDay(quoteIdentifier(column))} as text)` : day;
}

/**
 * Lateness = loaded-at day minus event day, in whole days, for every raw row:
 * the distribution, percentiles and what a given lookback misses.
 */
export function latenessReport(db: Warehouse, options: LatenessOptions): LatenessReport {
  const { relation, columns, lookback } = options;
  const unit = options.unit ?? 'day';
  if (!Number.isInteger(lookback) || lookback < 0) throw new ProjectError(`the lookback must be a whole number of ${unit}s >= 0, got ${lookback}`);
  const schema = options.schema ?? 'main';
  if (relationKind(db, relation, schema) === null) {
    throw new ProjectError(`table '${relation}' is not in the warehouse yet`, { hint: 'load it first: mini-dbt seed' });
  }
  const have = relationColumns(db, relation, { schema }).map((c) => c.name);
  for (const [what, column] of [['event_time', columns.eventTime], ['loaded_at', columns.loadedAt], ['--by', options.by]] as const) {
    if (column !== undefined && !have.includes(column)) {
      throw new ProjectError(`${what} column '${column}' is not a column of '${relation}'.${didYouMeanSuffix(column, have)}`, { hint: `columns: ${have.join(', ')}` });
    }
  }
  const lateness = `cast(${timeNumber(columns.loadedAt, unit)} - (${timeNumber(columns.eventTime, unit)}) as integer)`;
  const table = qualifiedName(schema, relation);
  // One scan of the raw rows, grouped by their (event, loaded-at) values (an index on both serves it in order, with no
  // sort); the lateness and the event day are computed once per distinct pair, not per row; the histogram, the total
  // and what the lookback misses (rows and distinct days) are read off those groups.
  const scanned = db.prepare(`
    with pairs as materialized (
      select ${quoteIdentifier(columns.eventTime)} as ev, ${quoteIdentifier(columns.loadedAt)} as ld, count(*) as n
      from ${table} group by 1, 2
    ),
    g as materialized (
      select cast(${timeNumber('ld', unit)} - (${timeNumber('ev', unit)}) as integer) as days, ${bucketOf('ev', unit)} as event_day, sum(n) as n
      from pairs group by 1, 2
    )
    select 'bin' as kind, days, sum(n) as rows, cast(null as bigint) as days_missed from g where days is not null group by days
    union all
    select 'total', null, sum(n), cast(null as bigint) from g
    union all
    select 'missed', null, sum(n), count(distinct event_day) from g where days > ?`).all(lookback) as { kind: string; days: unknown; rows: unknown; days_missed: unknown }[];
  const bins: HistogramBin[] = scanned.filter((r) => r.kind === 'bin').map((b) => ({ days: Number(b.days), rows: Number(b.rows) })).sort((a, b) => a.days - b.days);
  // Every day from the earliest to the latest, empty ones included, so the chart shows the gaps.
  const span = bins.length > 0 ? bins[bins.length - 1]!.days - bins[0]!.days : 0;
  const histogram: HistogramBin[] = span > MAX_FILLED_DAYS ? bins : [];
  for (let d = bins[0]?.days ?? 0, i = 0; span <= MAX_FILLED_DAYS && bins.length > 0 && d <= bins[bins.length - 1]!.days; d++) {
    if (bins[i]?.days === d) histogram.push(bins[i++]!);
    else histogram.push({ days: d, rows: 0 });
  }
  const total = Number(scanned.find((r) => r.kind === 'total')?.rows ?? 0);
  const rows = histogram.reduce((sum, b) => sum + b.rows, 0);
  const maxDays = histogram.length > 0 ? histogram[histogram.length - 1]!.days : null;
  const missedScan = scanned.find((r) => r.kind === 'missed');
  const missedRow = { rows: Number(missedScan?.rows ?? 0), days: Number(missedScan?.days_missed ?? 0) };
  let groups: Record<string, number> | undefined;
  if (options.by !== undefined) {
    const grouped = db.prepare(`select ${quoteIdentifier(options.by)} as value, count(*) as rows from ${table} where ${lateness} > ? group by 1 order by 2 desc, 1`).all(lookback) as { value: unknown; rows: number }[];
    // Values are labels here: a 10 MB string or a blob is shown as a short preview (equal previews add up).
    groups = {};
    for (const g of grouped) {
      const label = g.value === null ? '(null)' : previewValue(g.value, 60);
      groups[label] = (groups[label] ?? 0) + Number(g.rows);
    }
  }
  const pct = (p: number) => nearestRankPercentile(histogram, p);
  return {
    relation,
    unit,
    event_time: columns.eventTime,
    loaded_at: columns.loadedAt,
    rows,
    invalid_rows: total - rows,
    max_days: maxDays,
    required_lookback: Math.max(0, maxDays ?? 0),
    histogram,
    percentiles: { p50: pct(50), p90: pct(90), p95: pct(95), p99: pct(99), max: maxDays },
    missed: { lookback, rows: Number(missedRow.rows), days: Number(missedRow.days), ...(options.by !== undefined ? { by: options.by, groups } : {}) },
  };
}
