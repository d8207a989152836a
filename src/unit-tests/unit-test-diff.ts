import { createRequire } from 'node:module';
import { isNumericText } from './fixture-literal.js';

export type Cell = string | number | null;

/** The rows the unit test query returned for one side, as JSON (run_results' diff) and for the table diff. */
export interface UnitTestDiff {
  readonly actual: Record<string, Cell>[];
  readonly expected: Record<string, Cell>[];
  /** dbt's rendering: daff's terminal diff of expected against actual (colors stripped unless asked for). */
  readonly rendered: string;
}

const ANSI = /\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])/g;

/** A timestamp at midnight written as ISO text: `2016-09-01 00:00:00`, `2016-09-01T00:00:00.000`. */
const MIDNIGHT = /^(\d{4}-\d{2}-\d{2})[ T]00:00(?::00(?:\.0+)?)?$/;

/**
 * A cell as compared: SQLite may hand back 2 where the expected row says
 * '2', or 2.0 where it says 2 (dbt casts both sides to the column's type);
 * numbers and numeric text compare as numbers, bytes as hex, the rest as text.
 * A midnight timestamp compares as its date: SQLite keeps dates and times as
 * text, so `date_trunc('day', ...)` gives '2016-09-01 00:00:00' where the
 * expected row says '2016-09-01', which dbt (casting it to the column's
 * timestamp type) counts as equal.
 */
export function comparableCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return value.toString('hex');
  const text = String(value);
  if (isNumericText(text)) return Number(text);
  return MIDNIGHT.exec(text)?.[1] ?? text;
}

function compareCells(a: Cell, b: Cell): number {
  // dbt sorts None after values (Python's (elem is None, elem) key).
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function sortedRows(rows: readonly Cell[][]): Cell[][] {
  return [...rows].sort((r, s) => {
    for (let i = 0; i < r.length; i++) {
      const c = compareCells(r[i]!, s[i]!);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/**
 * dbt's unit test comparison: the expected and actual rows, each sorted (the
 * order of rows does not count), compared with daff; undefined when they
 * agree, else the diff dbt prints (`actual differs from expected:` and the
 * table, `+++` rows only in actual, `---` rows only in expected, `->` changed cells).
 */
export function unitTestDiff(columns: readonly string[], actual: readonly Cell[][], expected: readonly Cell[][], options: { readonly colors?: boolean } = {}): UnitTestDiff | undefined {
  // Loaded when a unit test compares its rows, not with every run that could hold one.
  const daff = createRequire(import.meta.url)('daff') as typeof import('daff').default;
  const header = [...columns];
  const flags = new daff.CompareFlags();
  flags.ordered = false;
  const expectedView = new daff.TableView([header, ...sortedRows(expected)]);
  const actualView = new daff.TableView([header, ...sortedRows(actual)]);
  const alignment = daff.compareTables(expectedView, actualView, flags).align();
  const output = new daff.TableView([]);
  const diff = new daff.TableDiff(alignment, flags);
  diff.hilite(output);
  if (!diff.hasDifference()) return undefined;
  let table = new daff.TerminalDiffRender().render(output).replace(/\r\n/g, '\n');
  if (!options.colors) table = table.replace(ANSI, '');
  const asObjects = (rows: readonly Cell[][]) => rows.map((row) => Object.fromEntries(header.map((c, i) => [c, row[i] ?? null])));
  return { actual: asObjects(actual), expected: asObjects(expected), rendered: `\n\nactual differs from expected:\n\n${table}\n` };
}
