import { agateNumberFormatter } from './agate-number-format.js';

/** agate's print_table defaults, which dbt's show uses: wider values are cut, further columns elided. */
const MAX_COLUMN_WIDTH = 20;
const MAX_COLUMNS = 6;
const ELLIPSIS = '...';

/** A value as agate prints it: None empty, booleans as Python's, numbers as written. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  return String(value);
}

const cut = (text: string) => (text.length > MAX_COLUMN_WIDTH ? `${text.slice(0, MAX_COLUMN_WIDTH - ELLIPSIS.length)}${ELLIPSIS}` : text);

/**
 * A column's type as dbt's agate table has it (table_from_data_flat): text when any value is a string
 * (printed as it is, left-aligned), its own Integer type when every value is a whole number (printed as it
 * is), otherwise an agate Number (agate-number-format.ts); all others (booleans, nulls only) as they are.
 * Everything but text is right-aligned. A REAL column holding only whole numbers is taken as integers here
 * (the driver gives both as numbers), where dbt would format it as a Number.
 */
function columnFormat(values: readonly unknown[]): { readonly right: boolean; readonly format: (value: unknown) => string } {
  if (values.some((v) => typeof v === 'string' || v instanceof Uint8Array)) return { right: false, format: cell };
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (numbers.some((n) => !Number.isInteger(n)) && values.every((v) => v === null || v === undefined || typeof v === 'number' || typeof v === 'bigint')) {
    const formatter = agateNumberFormatter(numbers);
    return { right: true, format: (v) => (typeof v === 'number' ? formatter(v) : typeof v === 'bigint' ? formatter(Number(v)) : cell(v)) };
  }
  return { right: true, format: cell };
}

/**
 * A preview as dbt prints it (agate's print_table): `| a | b |`, a `| - | - |` rule, text left-aligned and
 * everything else right-aligned (headers too), numbers formatted as their column's type says, values over
 * 20 characters cut with `...`, columns past the sixth shown as one `...` column.
 */
export function showTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const shown = columns.slice(0, MAX_COLUMNS);
  const elided = columns.length > MAX_COLUMNS;
  const formats = shown.map((_, i) => columnFormat(rows.map((r) => r[i])));
  const body = rows.map((r) => shown.map((_, i) => cut(formats[i]!.format(r[i]))));
  const headers = shown.map(cut);
  const widths = shown.map((_, i) => Math.max(headers[i]!.length, ...body.map((r) => r[i]!.length)));
  const pad = (text: string, i: number) => (formats[i]!.right ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  // Headers are aligned as their column's values are (agate justifies every row alike).
  const row = (cells: readonly string[]) => `| ${[...cells.map((c, i) => pad(c, i)), ...(elided ? [ELLIPSIS] : [])].join(' | ')} |`;
  return [row(headers), row(widths.map((w) => '-'.repeat(w))), ...body.map((r) => row(r))].join('\n');
}

/** The rows as dbt's --output json writes them (agate's to_json): one object per row, keyed by column. */
export function showRecords(columns: readonly string[], rows: readonly (readonly unknown[])[]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, typeof r[i] === 'bigint' ? Number(r[i]) : r[i] ?? null])));
}
