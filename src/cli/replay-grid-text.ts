import type { GridCellKind, ReplayGrid } from '../analysis/replay-grid.js';
import { colors } from './terminal.js';

/** One character a cell, readable without colors; colors (on a TTY) repeat what the character says. */
const CELL: Readonly<Record<GridCellKind, { readonly char: string; readonly paint: (s: string) => string }>> = {
  future: { char: ' ', paint: (s) => s },
  fresh: { char: '·', paint: (s) => colors.dim(s) },
  window: { char: '░', paint: (s) => colors.cyan(s) },
  stale: { char: '#', paint: (s) => colors.red(s) },
  applied: { char: '+', paint: (s) => colors.green(colors.bold(s)) },
  missed: { char: 'X', paint: (s) => colors.red(colors.bold(s)) },
};

/** The count and gap after each grid: cells + ` nnn` + `  `. */
const COUNT = 4;
const GAP = 2;

export interface GridTextOptions {
  /** The terminal's width: all days in one block when both grids fit, else a month per block (default 80). */
  readonly width?: number;
}

/**
 * The replay grids side by side in the terminal: one row per night, one
 * character per day, the stale count after each grid. When they do not fit
 * the width, the days are cut into a block per month, each block listing
 * only the nights that reach its days. A legend follows.
 */
export function replayGridText(grids: readonly ReplayGrid[], options: GridTextOptions = {}): string[] {
  const first = grids[0];
  if (first === undefined || first.days.length === 0) return [];
  const width = options.width ?? 80;
  const days = first.days;
  // Nights as MM-DD plus a mark, or the whole date when the days span two years.
  const year = new Set(days.map((d) => d.slice(0, 4))).size > 1;
  const LABEL = year ? 12 : 6;
  const titles = grids.map((g) => `lookback ${g.lookback}${g.required ? ' (required)' : ''}`);
  const total = LABEL + grids.reduce((n, _, i) => n + Math.max(days.length + COUNT, titles[i]!.length) + GAP, 0);
  const blocks = total <= width ? [days] : byMonth(days);
  const out: string[] = [];
  const weekly = first.rows.some((r) => r.weekly_backfill);
  for (const block of blocks) {
    const from = days.indexOf(block[0]!);
    const to = from + block.length;
    // Each grid's column: its cells and count, or its title when longer, then a gap.
    const widths = titles.map((t) => Math.max(block.length + COUNT, t.length) + GAP);
    const pad = (s: string, i: number) => s.padEnd(widths[i]!);
    if (blocks.length > 1) out.push(colors.bold(`days of ${block[0]!.slice(0, 7)}`));
    out.push(colors.bold(`${' '.repeat(LABEL)}${titles.map(pad).join('')}`.trimEnd()));
    const tens = block.map((d) => (d.endsWith('0') ? d[8]! : ' ')).join('');
    const units = block.map((d) => d[9]!).join('');
    if (tens.trim() !== '') out.push(colors.dim(`${' '.repeat(LABEL)}${grids.map((_, i) => pad(tens, i)).join('')}`.trimEnd()));
    // The count after each row is the night's stale days: headed by the stale cell's own character.
    out.push(colors.dim(`${'night'.padEnd(LABEL)}${grids.map((_, i) => pad(`${units}${'#'.padStart(COUNT)}`, i)).join('')}`.trimEnd()));
    first.rows.forEach((row, i) => {
      if (row.night < block[0]!) return;
      const label = `${row.night.slice(year ? 0 : 5)}${row.weekly_backfill ? '*' : ' '}`.padEnd(LABEL);
      const parts = grids.map((g, gi) => {
        const r = g.rows[i]!;
        const cells = r.cells.slice(from, to).map((k) => CELL[k].paint(CELL[k].char)).join('');
        const count = String(r.stale).padStart(COUNT);
        return `${cells}${r.stale > 0 ? colors.red(count) : colors.dim(count)}${' '.repeat(widths[gi]! - block.length - COUNT)}`;
      });
      out.push(`${label}${parts.join('')}`.trimEnd());
    });
    out.push('');
  }
  out.push(...legend(weekly));
  return out;
}

function legend(weekly: boolean): string[] {
  const key = (k: GridCellKind, text: string) => `${CELL[k].paint(CELL[k].char)} ${text}`;
  return [
    `${key('window', 'rewritten that night (the window)')}   ${key('fresh', 'equals a full rebuild as of that night')}`,
    `${key('applied', 'a late row landed inside the window: applied')}   ${key('missed', 'landed outside it: missed')}`,
    `${key('stale', 'stale: differs from a full rebuild as of that night; after each row: how many')}`,
    ...(weekly ? ['* after a night: the weekly backfill ran (its window includes the backfilled days)'] : []),
  ];
}

function byMonth(days: readonly string[]): string[][] {
  const blocks: string[][] = [];
  for (const d of days) {
    const last = blocks[blocks.length - 1];
    if (last && last[0]!.slice(0, 7) === d.slice(0, 7)) last.push(d);
    else blocks.push([d]);
  }
  return blocks;
}
