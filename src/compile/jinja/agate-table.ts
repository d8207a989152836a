import { splitKeywordArgs } from '../keyword-args.js';
import { formatTable } from './adapter-print-table.js';
import { tuple } from './python-repr.js';

/** One column of a query result, as agate's Column: `.name`, `.values()`. */
export class AgateColumn {
  constructor(
    readonly name: string,
    private readonly data: readonly unknown[],
  ) {
    // agate's Column is a sequence too: `table.columns['name'][0]` (dbt's run-operation tests read it so).
    data.forEach((value, i) => Object.defineProperty(this, i, { value, enumerable: false }));
  }
  values(): unknown[] {
    return [...this.data];
  }
  values_distinct(): unknown[] {
    return [...new Set(this.data)];
  }
  values_without_nulls(): unknown[] {
    return this.data.filter((v) => v !== null && v !== undefined);
  }
  /** Not '[object Object]', so Jinja-compat's dict methods (values, items) do not shadow these. */
  get [Symbol.toStringTag](): string {
    return 'AgateColumn';
  }
}

const METHOD_NAMES = { keys: 1, values: 1, items: 1, get: 1, dict: 1 };

/** A row: indexable by position (`row[0]`) and by column name (`row['amount']`, `row.amount`). */
export type AgateRow = unknown[] & Record<string, unknown>;

/**
 * agate's MappedSequence methods on a list whose items also have names (a
 * table's `columns`, a row): `keys()`, `values()`, `items()`, `get(key,
 * default)`, `dict()`. Own, non-enumerable members, so they win over the
 * Array methods of the same name and are not items.
 */
function mapped<T>(list: T[], names: readonly string[]): T[] {
  const at = (key: unknown): number => (typeof key === 'number' ? key : names.indexOf(String(key)));
  const methods: Record<string, (...args: unknown[]) => unknown> = {
    keys: () => [...names],
    values: () => [...list],
    items: () => names.map((name, i) => pairOf(name, list[i])),
    get: (key: unknown, fallback: unknown = null) => {
      const i = at(key);
      return i >= 0 && i < list.length ? list[i] : fallback;
    },
    dict: () => Object.fromEntries(names.map((name, i) => [name, list[i]])),
  };
  for (const [name, fn] of Object.entries(methods)) Object.defineProperty(list, name, { value: fn, enumerable: false });
  return list;
}

/** A (name, value) pair as Python's tuple unpacks in `for name, value in x.items()`. */
function pairOf(name: string, value: unknown): unknown[] {
  return tuple([name, value]);
}

/**
 * What `run_query` and `load_result(...).table` return, shaped after the
 * agate Table dbt gives: `.columns[0].values()`, `.rows[0][0]`,
 * `.column_names`, and iteration over rows.
 */
export class AgateTable {
  readonly column_names: readonly string[];
  readonly columns: AgateColumn[] & Record<string, AgateColumn>;
  readonly rows: AgateRow[];
  readonly #printer: ((text: string) => void) | undefined;

  constructor(columnNames: readonly string[], rows: readonly unknown[][], printer?: (text: string) => void) {
    this.#printer = printer;
    this.column_names = columnNames;
    this.rows = rows.map((values) => {
      const row = mapped([...values], columnNames) as AgateRow;
      columnNames.forEach((name, i) => {
        if (!(name in Array.prototype) && !(name in METHOD_NAMES) && !/^\d+$/.test(name)) row[name] = values[i];
      });
      return row;
    });
    const columns = mapped(columnNames.map((name, i) => new AgateColumn(name, rows.map((r) => r[i]))), columnNames) as AgateTable['columns'];
    for (const column of [...columns]) {
      if (!(column.name in Array.prototype) && !(column.name in METHOD_NAMES) && !/^\d+$/.test(column.name)) columns[column.name] = column;
    }
    this.columns = columns;
  }

  get length(): number {
    return this.rows.length;
  }

  /** agate's print_table(max_rows=20, max_columns=6): the table as text, to the log when the table was given one. */
  print_table(...args: unknown[]): string {
    const { positional, keywords } = splitKeywordArgs(args);
    const limit = (value: unknown, fallback: number): number => (value === undefined || value === null ? fallback : Number(value));
    this.#printer?.(formatTable(this, limit(positional[0] ?? keywords.max_rows, 20), limit(positional[1] ?? keywords.max_columns, 6)));
    return '';
  }

  get [Symbol.toStringTag](): string {
    return 'AgateTable';
  }

  [Symbol.iterator](): Iterator<AgateRow> {
    return this.rows[Symbol.iterator]();
  }
}
