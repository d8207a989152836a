import type { StaleCause, WentStale } from '../analysis/went-stale.js';
import { previewValue } from '../errors/value-preview.js';
import { idNoun } from '../execute/row-id-column.js';
import { colors } from './terminal.js';

/** Why lines printed without --verbose. */
const SHOWN = 3;

/**
 * Replay's account of each day going stale, e.g. `2026-09-03 went stale on
 * 2026-09-09: order 50044 (status delivered -> refunded) landed 6 days late,
 * window 2026-09-06..2026-09-09`: a heading that sums them up, then the
 * first few (all with verbose).
 */
export function staleWhyLines(events: readonly WentStale[], lookback: number, verbose: boolean): string[] {
  if (events.length === 0) return [];
  const days = events.flatMap((e) => e.causes.map((c) => c.days_late)).filter((d): d is number => d !== null);
  const late = days.length === 0 ? '' : Math.min(...days) === Math.max(...days) ? `, ${days[0]} days late` : `, ${Math.min(...days)} to ${Math.max(...days)} days late`;
  const out = [colors.bold(`why: ${events.length} time${events.length === 1 ? '' : 's'} a day went stale, on the night a row for it landed outside the window (lookback ${lookback}${late})`)];
  const shown = verbose ? events : events.slice(0, SHOWN);
  for (const e of shown) out.push(`  ${whyLine(e)}`);
  if (shown.length < events.length) out.push(colors.dim(`  ... and ${events.length - shown.length} more (--verbose lists every one; --json has them all)`));
  return out;
}

export function whyLine(e: WentStale): string {
  const head = `${e.partition} went stale on ${e.night}`;
  const window = e.window === null ? '' : `, window ${e.window[0] === e.window[1] ? e.window[0] : `${e.window[0]}..${e.window[1]}`}`;
  if (e.rows === 0 || e.causes.length === 0) return `${head}: no row landed for it outside the window that night; it differs from a full rebuild as of ${e.night}${window}`;
  const first = e.causes[0]!;
  const more = e.rows - 1;
  return `${head}: ${cause(first)}${more > 0 ? ` (and ${more} more row${more === 1 ? '' : 's'})` : ''}${window}`;
}

function cause(c: StaleCause): string {
  const late = c.days_late === null ? `landed ${previewValue(c.loaded_at)}` : `landed ${c.days_late} day${c.days_late === 1 ? '' : 's'} late`;
  if (c.id_column === null) return `a row ${late}`;
  const who = `${idNoun(c.id_column, 1)} ${previewValue(c.id)}`;
  if (c.changes === null) return `new ${who} ${late}`;
  if (c.changes.length === 0) return `${who}'s new version (no column changed) ${late}`;
  const changed = c.changes.slice(0, 2).map((x) => `${x.column} ${previewValue(x.from)} -> ${previewValue(x.to)}`).join(', ');
  return `${who} (${changed}${c.changes.length > 2 ? ', ...' : ''}) ${late}`;
}
