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

/** How a column prints: aligned right (every agate type but text) and each value's text. */
interface ColumnFormat {
  readonly right: boolean;
  readonly format: (value: unknown) => string;
}

const isNumeric = (v: unknown) => v === null || v === undefined || typeof v === 'number' || typeof v === 'bigint';

/** Numbers as an agate Number column prints them (agate-number-format.ts); anything else as it is. */
function numberColumn(values: readonly unknown[]): ColumnFormat {
  const formatter = agateNumberFormatter(values.map((v) => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : null)));
  return { right: true, format: (v) => (typeof v === 'number' ? formatter(v) : typeof v === 'bigint' ? formatter(Number(v)) : cell(v)) };
}

/**
 * A column's type as dbt's agate table of a query result has it (table_from_data_flat): text when any
 * value is a string (printed as it is, left-aligned), its own Integer type when every value is a whole
 * number (printed as it is), otherwise an agate Number; all others (booleans, nulls only) as they are.
 * Everything but text is right-aligned. A REAL column holding only whole numbers is taken as integers
 * here (the driver gives both as numbers), where dbt would format it as a Number.
 */
function resultColumn(values: readonly unknown[]): ColumnFormat {
  if (values.some((v) => typeof v === 'string' || v instanceof Uint8Array)) return { right: false, format: cell };
  if (values.some((v) => typeof v === 'number' && !Number.isInteger(v)) && values.every(isNumeric)) return numberColumn(values);
  return { right: true, format: cell };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A column's type as agate gives it to a seed's CSV (dbt's seed --show prints the file's table, whose
 * values are all texts): a column of numbers is a Number, whole numbers too (dbt's Integer takes only
 * ints), so its thousands are grouped; a column of `YYYY-MM-DD` (or `YYYY-MM-DD HH:MM:SS`) dates is a
 * Date (DateTime), right-aligned; anything else text.
 */
function csvColumn(values: readonly unknown[]): ColumnFormat {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length > 0 && present.every((v) => typeof v === 'number' || typeof v === 'bigint')) return numberColumn(values);
  if (present.length > 0 && present.every((v) => typeof v === 'string' && (DATE.test(v) || DATE_TIME.test(v)))) return { right: true, format: cell };
  if (present.length === 0) return { right: true, format: cell };
  return { right: false, format: cell };
}

export interface ShowTableOptions {
  /** Columns shown before the rest are elided into one `...` column (agate's max_columns: 6; Infinity: all, as seed --show). */
  readonly maxColumns?: number;
  /** More rows than these exist: a last row of `...` in every column, as agate marks a cut table. */
  readonly truncated?: boolean;
  /** The rows are a seed's, typed as agate types its CSV file (seed --show), not as a query result (show). */
  readonly csvTypes?: boolean;
}

/**
 * A preview as dbt prints it (agate's print_table): `| a | b |`, a `| - | - |` rule, text left-aligned and
 * everything else right-aligned (headers too), numbers formatted as their column's type says, values over
 * 20 characters cut with `...`, columns past the sixth shown as one `...` column.
 */
export function showTable(columns: readonly string[], rows: readonly (readonly unknown[])[], options: ShowTableOptions = {}): string {
  const maxColumns = options.maxColumns ?? MAX_COLUMNS;
  const shown = columns.slice(0, maxColumns);
  const elided = columns.length > maxColumns;
  const typeOf = options.csvTypes ? csvColumn : resultColumn;
  const formats = shown.map((_, i) => typeOf(rows.map((r) => r[i])));
  const body = rows.map((r) => shown.map((_, i) => cut(formats[i]!.format(r[i]))));
  const headers = shown.map(cut);
  const widths = shown.map((_, i) => Math.max(headers[i]!.length, ...body.map((r) => r[i]!.length)));
  // The cut table's last row, padded to the widths of the rest (agate does not widen a column for it).
  if (options.truncated) body.push(shown.map(() => ELLIPSIS));
  const pad = (text: string, i: number) => (formats[i]!.right ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  // Headers are aligned as their column's values are (agate justifies every row alike).
  const row = (cells: readonly string[]) => `| ${[...cells.map((c, i) => pad(c, i)), ...(elided ? [ELLIPSIS] : [])].join(' | ')} |`;
  return [row(headers), row(widths.map((w) => '-'.repeat(w))), ...body.map((r) => row(r))].join('\n');
}

/** The rows as dbt's --output json writes them (agate's to_json): one object per row, keyed by column. */
export function showRecords(columns: readonly string[], rows: readonly (readonly unknown[])[]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, typeof r[i] === 'bigint' ? Number(r[i]) : r[i] ?? null])));
}
