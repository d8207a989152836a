/** SQLite's type affinity of a declared column type (its five rules, in order). */
export type Affinity = 'INTEGER' | 'TEXT' | 'BLOB' | 'REAL' | 'NUMERIC';

export function affinityOf(declared: string): Affinity {
  const t = declared.toUpperCase();
  if (t.includes('INT')) return 'INTEGER';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'TEXT';
  if (t === '' || t.includes('BLOB')) return 'BLOB';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'REAL';
  return 'NUMERIC';
}

const NUMBER = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** Whether text is a well-formed number, as SQLite's affinity rules convert it. */
export function isNumericText(text: string): boolean {
  return NUMBER.test(text);
}

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

function numberLiteral(n: number, affinity: Affinity): string {
  if (!Number.isFinite(n)) return quote(String(n));
  if (affinity === 'TEXT') return quote(String(n));
  if (affinity === 'REAL' && Number.isInteger(n)) return `${n}.0`;
  return String(n);
}

/**
 * A fixture value as a SQL literal holding what a column of `declared` type
 * would hold: dbt casts each value to the column's type (safe_cast); on
 * SQLite a CAST to a NUMERIC-affinity type such as DATE would turn
 * '2024-09-03' into 2024, so the column's affinity rules are applied instead
 * (text that is a well-formed number becomes a number in a numeric column, a
 * number becomes text in a text column, anything else stays as written). A
 * column without a declared type takes values as written, except that csv
 * text (csv has no types) that is a well-formed number becomes a number.
 */
export function fixtureLiteral(value: unknown, declared: string, fromCsv: boolean): string {
  if (value === null || value === undefined) return 'null';
  const affinity = affinityOf(declared);
  if (typeof value === 'boolean') return affinity === 'TEXT' ? quote(value ? 'True' : 'False') : value ? '1' : '0';
  if (typeof value === 'number') return numberLiteral(value, affinity);
  if (typeof value === 'bigint') return affinity === 'TEXT' ? quote(String(value)) : String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (affinity === 'TEXT' || !isNumericText(text)) return quote(text);
  if (affinity === 'BLOB' && !fromCsv) return quote(text);
  return numberLiteral(Number(text), affinity === 'BLOB' ? 'NUMERIC' : affinity);
}
