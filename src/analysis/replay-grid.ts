import { addDays, dateRange } from '../feed/iso-date.js';
import type { LateLanding } from './late-landings.js';

/**
 * What one cell (night R, day D) of a replay grid shows, most telling first:
 * a late row landing that night (applied or missed), then the day stale,
 * then the day rewritten, else fresh; days after the night are `future`.
 */
export type GridCellKind = 'future' | 'fresh' | 'window' | 'stale' | 'applied' | 'missed';

/** A replay night as the grid reads it (api/replay's ReplayNight has these). */
export interface GridNightInput {
  readonly run_date: string;
  readonly stale: readonly string[];
  readonly window: readonly [string, string] | null;
  readonly weekly_backfill: boolean;
}

export interface GridPassInput {
  readonly lookback: number;
  readonly nights: readonly GridNightInput[];
}

/** A replay result as the grid reads it (api/replay's ReplayResult has these). */
export interface ReplayGridInput extends GridPassInput {
  readonly to: string;
  readonly weekly_backfill: number | null;
  readonly required_lookback: number;
  readonly with_required_lookback: GridPassInput | null;
  readonly late_landings: readonly LateLanding[];
}

export interface ReplayGridRow {
  readonly night: string;
  /** The days the night rewrote (the nightly window, widened by the weekly backfill on its nights); null: none. */
  readonly window: readonly [string, string] | null;
  readonly weekly_backfill: boolean;
  /** Stale days after the night (differing from a full rebuild as of the night). */
  readonly stale: number;
  /** Late rows that landed that night inside the window (applied) and outside it (missed). */
  readonly applied_rows: number;
  readonly missed_rows: number;
  /** One a day, in `ReplayGrid.days` order. */
  readonly cells: readonly GridCellKind[];
  /** Late rows landed that night per day (0 where none), in `ReplayGrid.days` order. */
  readonly landed: readonly number[];
}

/** One replay pass as a nights x days grid. */
export interface ReplayGrid {
  readonly lookback: number;
  /** Whether this is the required lookback (the longest lateness). */
  readonly required: boolean;
  /** The columns: every day from the first one the replay touched to the last night. */
  readonly days: readonly string[];
  readonly rows: readonly ReplayGridRow[];
}

/**
 * The replay's passes (the project's lookback, then the compared one when
 * it ran) as grids over the same days: from the earliest day a window,
 * a stale day or a late row touched (the night before the first when none
 * did) to the last night.
 */
export function replayGrids(result: ReplayGridInput): ReplayGrid[] {
  const passes = [result, ...(result.with_required_lookback ? [result.with_required_lookback] : [])];
  const days = gridDays(result, passes);
  return passes.map((p) => replayGrid(p, days, result));
}

function gridDays(result: ReplayGridInput, passes: readonly GridPassInput[]): string[] {
  const first = result.nights[0]?.run_date;
  if (first === undefined) return [];
  // From the earliest day anything happened to (a day with no rows is never written): no empty leading columns.
  let start: string | undefined;
  const touch = (day: string) => {
    if (start === undefined || day < start) start = day;
  };
  for (const p of passes) {
    for (const n of p.nights) {
      if (n.window) touch(n.window[0]);
      n.stale.forEach(touch);
    }
  }
  result.late_landings.forEach((l) => touch(l.partition));
  return dateRange(start ?? addDays(first, -1), result.to);
}

function replayGrid(pass: GridPassInput, days: readonly string[], result: ReplayGridInput): ReplayGrid {
  const landed = new Map<string, number>();
  for (const l of result.late_landings) landed.set(`${l.night} ${l.partition}`, (landed.get(`${l.night} ${l.partition}`) ?? 0) + l.rows);
  const rows = pass.nights.map((n): ReplayGridRow => {
    const window = rewritten(n, result.weekly_backfill);
    const stale = new Set(n.stale);
    const inWindow = (d: string) => window !== null && d >= window[0] && d <= window[1];
    let applied = 0;
    let missed = 0;
    const counts = days.map((d) => landed.get(`${n.run_date} ${d}`) ?? 0);
    const cells = days.map((d, i): GridCellKind => {
      if (d > n.run_date) return 'future';
      const rows = counts[i]!;
      if (rows > 0 && inWindow(d)) {
        applied += rows;
        return 'applied';
      }
      if (rows > 0) {
        missed += rows;
        return 'missed';
      }
      if (stale.has(d)) return 'stale';
      return inWindow(d) ? 'window' : 'fresh';
    });
    return { night: n.run_date, window, weekly_backfill: n.weekly_backfill, stale: n.stale.length, applied_rows: applied, missed_rows: missed, cells, landed: counts };
  });
  return { lookback: pass.lookback, required: pass.lookback === result.required_lookback, days, rows };
}

/** The days a night rewrote: its run's window, widened to night - N on a weekly backfill night. */
function rewritten(n: GridNightInput, weekly: number | null): readonly [string, string] | null {
  if (!n.weekly_backfill || weekly === null) return n.window;
  const start = addDays(n.run_date, -weekly);
  return n.window === null ? [start, n.run_date] : [start < n.window[0] ? start : n.window[0], n.window[1] > n.run_date ? n.window[1] : n.run_date];
}
