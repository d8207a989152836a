import type { AgateTable } from './agate-table.js';

// Made on first use: building a NumberFormat loads ICU's locale data (about 10 ms), which every command
// that loads the template environment would pay at start-up.
let numberFormat: Intl.NumberFormat | undefined;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return (numberFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 })).format(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}

/**
 * A table as agate's print_table writes it: a Markdown-like grid, numbers
 * right-aligned, `...` for the rows and columns past max_rows/max_columns.
 */
export function formatTable(table: AgateTable, maxRows: number, maxColumns: number): string {
  const shownColumns = table.column_names.slice(0, maxColumns);
  const moreColumns = table.column_names.length > maxColumns;
  const numeric = shownColumns.map((_, i) => table.rows.length > 0 && table.rows.every((r) => r[i] === null || typeof r[i] === 'number'));
  const body = table.rows.slice(0, maxRows).map((r) => shownColumns.map((_, i) => cell(r[i])));
  if (table.rows.length > maxRows) body.push(shownColumns.map(() => '...'));
  const widths = shownColumns.map((name, i) => Math.max(name.length, 1, ...body.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => {
    const padded = cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)));
    return `| ${[...padded, ...(moreColumns ? ['...'] : [])].join(' | ')} |`;
  };
  const rule = `| ${[...widths.map((w) => '-'.repeat(w)), ...(moreColumns ? ['---'] : [])].join(' | ')} |`;
  return [line(shownColumns), rule, ...body.map(line)].join('\n');
}
