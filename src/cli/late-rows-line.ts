import { addDays, isIsoDate } from '../feed/iso-date.js';
import { idNoun } from '../execute/row-id-column.js';
import { previewValue } from '../errors/value-preview.js';
import type { LateRowsNotApplied } from '../state/node-result.js';

/** Days and ids named before "and N more". */
const NAMED = 3;

/**
 * The line an incremental run prints after its result when it left late rows
 * behind, e.g. `late rows not applied: 2 rows landed tonight for 2026-09-03,
 * outside the window 2026-09-06..2026-09-09 (orders 50044, 50071)`; undefined
 * when it missed nothing.
 */
export function lateRowsLine(late: LateRowsNotApplied): string | undefined {
  if (late.rows === 0) return undefined;
  const tonight = isIsoDate(late.landed_after) && isIsoDate(late.landed_by) && addDays(late.landed_after, 1) === late.landed_by;
  const when = tonight ? 'tonight' : `since the previous run's as-of ${previewValue(late.landed_after)}`;
  const days = late.partitions.map((p) => p.partition);
  const named = days.slice(0, NAMED);
  const forDays = days.length <= NAMED
    ? named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`
    : `${named.join(', ')} and ${days.length - NAMED} more day${days.length - NAMED === 1 ? '' : 's'}`;
  const window = late.window[0] === late.window[1] ? late.window[0] : `${late.window[0]}..${late.window[1]}`;
  return `late rows not applied: ${late.rows} row${late.rows === 1 ? '' : 's'} landed ${when} for ${forDays}, outside the window ${window}${ids(late)}`;
}

function ids(late: LateRowsNotApplied): string {
  const withId = late.sample.filter((s) => s.id_column !== null && s.id !== null);
  if (withId.length === 0) return '';
  const distinct = [...new Set(withId.map((s) => String(s.id)))];
  const shown = distinct.slice(0, NAMED);
  const covered = withId.filter((s) => shown.includes(String(s.id))).length;
  const more = late.rows - covered;
  const noun = idNoun(withId[0]!.id_column, shown.length + Math.max(0, more));
  return ` (${noun} ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
}
