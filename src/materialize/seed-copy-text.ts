/**
 * A seed record as one line of PostgreSQL's COPY text format: fields
 * separated by tabs, NULL written \N, and a backslash, tab, line feed or
 * carriage return inside a value escaped with a backslash (so a value is
 * never read as a NULL marker, a field break or the end of the row). Empty
 * fields and the literal `null` are NULL, as in every seed load.
 */
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field as COPY text. */
export function copyTextField(value: string): string {
  if (value === '' || value === 'null') return '\\N';
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

/** The first `width` fields of a record as one COPY text line, line feed included. */
export function copyTextLine(record: readonly string[], width: number): string {
  let line = copyTextField(record[0]!);
  for (let c = 1; c < width; c++) line += `\t${copyTextField(record[c]!)}`;
  return `${line}\n`;
}
