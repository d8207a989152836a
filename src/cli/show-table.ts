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
 * A preview as dbt prints it (agate's print_table): `| a | b |`, a `| - | - |` rule, numbers right-aligned,
 * text left-aligned, values over 20 characters cut with `...`, columns past the sixth shown as one `...` column.
 */
export function showTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const shown = columns.slice(0, MAX_COLUMNS);
  const elided = columns.length > MAX_COLUMNS;
  const numeric = shown.map((_, i) => rows.some((r) => typeof r[i] === 'number' || typeof r[i] === 'bigint') && rows.every((r) => r[i] === null || typeof r[i] === 'number' || typeof r[i] === 'bigint'));
  const body = rows.map((r) => shown.map((_, i) => cut(cell(r[i]))));
  const headers = shown.map(cut);
  const widths = shown.map((_, i) => Math.max(headers[i]!.length, ...body.map((r) => r[i]!.length)));
  const pad = (text: string, i: number) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const row = (cells: readonly string[], aligned: boolean) => `| ${[...cells.map((c, i) => (aligned ? pad(c, i) : c.padEnd(widths[i]!))), ...(elided ? [ELLIPSIS] : [])].join(' | ')} |`;
  return [row(headers, false), row(widths.map((w) => '-'.repeat(w)), false), ...body.map((r) => row(r, true))].join('\n');
}

/** The rows as dbt's --output json writes them (agate's to_json): one object per row, keyed by column. */
export function showRecords(columns: readonly string[], rows: readonly (readonly unknown[])[]): Record<string, unknown>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, typeof r[i] === 'bigint' ? Number(r[i]) : r[i] ?? null])));
}
