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

/** A row: indexable by position (`row[0]`) and by column name (`row['amount']`, `row.amount`). */
export type AgateRow = unknown[] & Record<string, unknown>;

/**
 * What `run_query` and `load_result(...).table` return, shaped after the
 * agate Table dbt gives: `.columns[0].values()`, `.rows[0][0]`,
 * `.column_names`, and iteration over rows.
 */
export class AgateTable {
  readonly column_names: readonly string[];
  readonly columns: AgateColumn[] & Record<string, AgateColumn>;
  readonly rows: AgateRow[];

  constructor(columnNames: readonly string[], rows: readonly unknown[][]) {
    this.column_names = columnNames;
    this.rows = rows.map((values) => {
      const row = [...values] as AgateRow;
      columnNames.forEach((name, i) => {
        if (!(name in Array.prototype) && !/^\d+$/.test(name)) row[name] = values[i];
      });
      return row;
    });
    const columns = columnNames.map((name, i) => new AgateColumn(name, rows.map((r) => r[i]))) as AgateTable['columns'];
    for (const column of [...columns]) {
      if (!(column.name in Array.prototype) && !/^\d+$/.test(column.name)) columns[column.name] = column;
    }
    this.columns = columns;
  }

  get length(): number {
    return this.rows.length;
  }

  print_table(): string {
    return '';
  }

  get [Symbol.toStringTag](): string {
    return 'AgateTable';
  }

  [Symbol.iterator](): Iterator<AgateRow> {
    return this.rows[Symbol.iterator]();
  }
}
