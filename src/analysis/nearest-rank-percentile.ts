export interface HistogramBin {
  /** Days late (may be negative for rows that landed before their day). */
  readonly days: number;
  readonly rows: number;
}

/**
 * The nearest-rank percentile of a histogram: the smallest value v such that
 * at least p% of the rows are <= v. `bins` must be sorted by days. Returns
 * null for an empty histogram.
 */
export function nearestRankPercentile(bins: readonly HistogramBin[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  const total = bins.reduce((sum, b) => sum + b.rows, 0);
  if (total === 0) return null;
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const bin of bins) {
    seen += bin.rows;
    if (seen >= rank) return bin.days;
  }
  return bins[bins.length - 1]!.days;
}
