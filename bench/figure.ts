/** One line of the results table. */
export interface Figure {
  /** Stable key, e.g. 'nightly' or 'seed-load'; with the scale it identifies the row in bench/results.json. */
  readonly id: string;
  readonly title: string;
  /** What the ratio compares, e.g. 'nightly / full rebuild'. */
  readonly ratioOf: string;
  /** Measured side by side in the same run; null when not measured. */
  readonly ratio: number | null;
  /** The absolute numbers behind the ratio. */
  readonly measured: string;
  readonly target: string;
  /** null: a report without a pass/fail target, or not measured. */
  readonly meets: boolean | null;
  readonly note?: string;
}

export function notMeasured(id: string, title: string, target: string, why: string): Figure {
  return { id, title, ratioOf: '-', ratio: null, measured: `not measured: ${why}`, target, meets: null };
}

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(0)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function formatRatio(ratio: number): string {
  if (ratio < 0.1) return `${(ratio * 100).toFixed(2)}%`;
  if (ratio < 1) return `${(ratio * 100).toFixed(1)}%`;
  return `${ratio.toFixed(2)}x`;
}
