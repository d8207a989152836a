import { addDays, isIsoDate } from '../feed/iso-date.js';
import { nextWholeHour } from '../feed/iso-hour.js';
import { nextIsoMonth } from '../feed/iso-month.js';

export interface PartitionRange {
  readonly start: string;
  readonly end: string;
}

/**
 * The fewest ranges that cover exactly these partitions: consecutive days
 * merge into one range, and so do consecutive whole hours written alike
 * (hourly partitions, `2026-03-02 06:00:00`) and consecutive months
 * (`2026-03`). Any other partition gets a range of its own. The input need not be sorted or unique.
 */
export function minimalRanges(partitions: readonly string[]): PartitionRange[] {
  const sorted = [...new Set(partitions)].sort();
  const ranges: { start: string; end: string }[] = [];
  for (const p of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && follows(last.end, p)) last.end = p;
    else ranges.push({ start: p, end: p });
  }
  return ranges;
}

/** Whether partition `p` comes right after `previous`: the next day, whole hour or month. */
function follows(previous: string, p: string): boolean {
  if (isIsoDate(p) && isIsoDate(previous)) return addDays(previous, 1) === p;
  return nextWholeHour(previous) === p || nextIsoMonth(previous) === p;
}

/** "2026-09-03..2026-09-04" or "2026-09-07" for a one-day range. */
export function formatRange(range: PartitionRange): string {
  return range.start === range.end ? range.start : `${range.start}..${range.end}`;
}
