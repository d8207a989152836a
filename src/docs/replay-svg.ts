import type { GridCellKind, ReplayGrid } from '../analysis/replay-grid.js';
import { escapeXml } from './escape-xml.js';

/** Cell colours: the same meanings as the terminal grid's characters (+ applied, X missed, # stale). */
export const GRID_COLORS: Readonly<Record<GridCellKind, string>> = {
  future: 'none',
  fresh: '#edf2f7',
  window: '#90cdf4',
  stale: '#fc8181',
  applied: '#2f855a',
  missed: '#9b2c2c',
};

const LEGEND: readonly (readonly [GridCellKind, string])[] = [
  ['window', 'rewritten that night (the window)'],
  ['applied', 'a late row landed inside the window: applied'],
  ['missed', 'a late row landed outside it: missed'],
  ['stale', 'stale: differs from a full rebuild as of that night'],
  ['fresh', 'equals a full rebuild as of that night'],
];

const CELL = 9;
const LABEL = 44;
const TOP = 52;
const COUNT = 34;
const GAP = 28;

/**
 * The replay grids side by side as one SVG: per grid a row per night
 * (`g.grid-row`, its night in data-night) with a cell per day up to the
 * night (`rect.cell`, its kind as a class), the night's stale count after it, and
 * a legend below. Late-row cells carry a tooltip with their row count.
 */
export function replayGridSvg(grids: readonly ReplayGrid[]): string {
  const days = grids[0]?.days ?? [];
  const nights = grids[0]?.rows.length ?? 0;
  const gridWidth = days.length * CELL;
  const width = LABEL + grids.length * (gridWidth + COUNT + GAP);
  const legendTop = TOP + nights * CELL + 18;
  const height = legendTop + LEGEND.length * 16 + 4;
  const out: string[] = [];
  out.push(`<svg class="replay-grid" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="replay grid: nights by days">`);
  // Cells are coloured by class (some 4,000 of them on two months: the page stays small).
  out.push(`<style>${Object.entries(GRID_COLORS).map(([k, c]) => `.replay-grid .${k}{fill:${c}}`).join('')}</style>`);
  grids.forEach((g, gi) => {
    const x0 = LABEL + gi * (gridWidth + COUNT + GAP);
    out.push(`<g class="grid" data-lookback="${g.lookback}" transform="translate(${x0},0)">`);
    out.push(`<text class="grid-title" x="0" y="12">lookback ${g.lookback}${g.required ? ' (required: the longest lateness)' : ''}</text>`);
    // Month starts as MM-DD (from their column on), every fifth day by number, none crowding a month start.
    const starts = days.flatMap((d, i) => (i === 0 || d.endsWith('-01') ? [i] : []));
    days.forEach((d, i) => {
      if (starts.includes(i)) out.push(`<text class="day-label month-label" x="${i * CELL}" y="${TOP - 16}">${d.slice(0, 7)}</text><text class="day-label" x="${i * CELL + CELL / 2}" y="${TOP - 6}" text-anchor="middle">${Number(d.slice(8))}</text>`);
      else if (Number(d.slice(8)) % 5 === 0 && !starts.some((s) => Math.abs(s - i) < 3)) out.push(`<text class="day-label" x="${i * CELL + CELL / 2}" y="${TOP - 6}" text-anchor="middle">${Number(d.slice(8))}</text>`);
    });
    out.push(`<text class="day-label" x="${gridWidth + COUNT - 4}" y="${TOP - 6}" text-anchor="end">stale</text>`);
    g.rows.forEach((r, ri) => {
      const y = TOP + ri * CELL;
      out.push(`<g class="grid-row" data-night="${r.night}" data-stale="${r.stale}">`);
      if (gi === 0) out.push(`<text class="night-label" x="-4" y="${y + CELL - 1}" text-anchor="end">${r.night.slice(5)}${r.weekly_backfill ? '*' : ''}</text>`);
      r.cells.forEach((kind, ci) => {
        if (kind === 'future') return;
        const rows = r.landed[ci] ?? 0;
        const title = rows > 0 ? `<title>${escapeXml(`night ${r.night}, day ${days[ci]}: ${rows} late row${rows === 1 ? '' : 's'} ${kind === 'applied' ? 'applied (inside the window)' : 'missed (outside the window)'}`)}</title>` : '';
        out.push(`<rect class="cell ${kind}" x="${ci * CELL}" y="${y}" width="${CELL - 1}" height="${CELL - 1}">${title}</rect>`);
      });
      out.push(`<text class="stale-count${r.stale > 0 ? ' nonzero' : ''}" x="${gridWidth + COUNT - 4}" y="${y + CELL - 1}" text-anchor="end">${r.stale}</text>`);
      out.push('</g>');
    });
    out.push('</g>');
  });
  LEGEND.forEach(([kind, text], i) => {
    const y = legendTop + i * 16;
    out.push(`<rect class="key ${kind}" x="${LABEL}" y="${y}" width="${CELL + 1}" height="${CELL + 1}"></rect><text class="legend-text" x="${LABEL + 16}" y="${y + 9}">${escapeXml(text)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
