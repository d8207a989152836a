/**
 * A source table's freshness criteria (dbt's FreshnessThreshold), read from the
 * `freshness` config project/source-freshness-config.ts merged, and how an
 * age is judged against them (dbt's `Time.exceeded` and `FreshnessThreshold.status`).
 */

export type FreshnessPeriod = 'minute' | 'hour' | 'day';

export interface FreshnessTime {
  readonly count: number;
  readonly period: FreshnessPeriod;
}

export interface FreshnessCriteria {
  readonly warnAfter: FreshnessTime | null;
  readonly errorAfter: FreshnessTime | null;
  /** A SQL condition the freshness query adds as its `where` (only there). */
  readonly filter: string | null;
}

export type FreshnessStatus = 'pass' | 'warn' | 'error';

const SECONDS: Record<FreshnessPeriod, number> = { minute: 60, hour: 3600, day: 86400 };

const timeOf = (v: unknown): FreshnessTime | null => {
  if (typeof v !== 'object' || v === null) return null;
  const { count, period } = v as { count?: unknown; period?: unknown };
  return typeof count === 'number' && typeof period === 'string' && period in SECONDS ? { count, period: period as FreshnessPeriod } : null;
};

/** The criteria of a `freshness` config value; null when it checks nothing (no warn_after and no error_after, or `freshness: null`). */
export function freshnessCriteria(value: unknown): FreshnessCriteria | null {
  if (typeof value !== 'object' || value === null) return null;
  const raw = value as { warn_after?: unknown; error_after?: unknown; filter?: unknown };
  const warnAfter = timeOf(raw.warn_after);
  const errorAfter = timeOf(raw.error_after);
  if (warnAfter === null && errorAfter === null) return null;
  return { warnAfter, errorAfter, filter: typeof raw.filter === 'string' && raw.filter.trim() !== '' ? raw.filter : null };
}

/** Seconds a threshold allows. */
export function thresholdSeconds(time: FreshnessTime): number {
  return time.count * SECONDS[time.period];
}

/** dbt's rule: older than error_after is an error, else older than warn_after a warning (strictly older: at the limit passes). */
export function freshnessStatus(criteria: FreshnessCriteria, ageSeconds: number): FreshnessStatus {
  if (criteria.errorAfter && ageSeconds > thresholdSeconds(criteria.errorAfter)) return 'error';
  if (criteria.warnAfter && ageSeconds > thresholdSeconds(criteria.warnAfter)) return 'warn';
  return 'pass';
}
