/**
 * The SQL an engine speaks, as far as the tool writes SQL itself (models'
 * own SQL is the user's): quoting, the type names it declares, the date
 * arithmetic of its own queries, and the DDL and strategy fragments that
 * differ between engines. Pure string building: no connection needed.
 */
export type TypeAffinity = 'INTEGER' | 'TEXT' | 'BLOB' | 'REAL' | 'NUMERIC';

export interface Dialect {
  readonly name: string;
  /** "name", with embedded double quotes doubled. */
  quoteIdentifier(name: string): string;
  /** The column an unquoted name stands for (a unique_key as dbt writes it, unquoted): SQLite keeps it (its names match in any case), PostgreSQL folds it to lower case. */
  unquotedName(name: string): string;
  /** What follows a subquery standing for a relation (--empty, a microbatch's filter): dbt's ` _dbt_<namespace>_subq_<table>` where a subquery in FROM needs an alias (PostgreSQL), else nothing (SQLite). */
  subqueryAlias(namespace: string, table: string): string;
  /** 'text', with embedded single quotes doubled. */
  quoteLiteral(value: string): string;

  /**
   * The column types a seed's columns are inferred as (dbt: agate's type,
   * then the adapter's convert_*_type). The optional ones fall back: whole
   * numbers beyond 32 bits to `integer`, a column with no value to `text`.
   * On SQLite, dbt-sqlite's: dates and timestamps `TEXT`, booleans `INT`
   * (see `seedValues`).
   */
  readonly types: {
    /** Whole numbers (PostgreSQL: within 32 bits, dbt-postgres's `integer`). */
    readonly integer: string;
    /** Whole numbers beyond 32 bits, within 64 (dbt-postgres would fail on them with `integer`). */
    readonly bigInteger?: string;
    /** Numbers with a decimal point or an exponent. */
    readonly real: string;
    readonly text: string;
    /** A column whose every value is empty (dbt-postgres: agate's Number, so `integer`). */
    readonly empty?: string;
    /** YYYY-MM-DD. */
    readonly date: string;
    /** YYYY-MM-DD HH:MM:SS, or ISO 8601's YYYY-MM-DDTHH:MM[:SS[.ffffff]] (without a time zone). */
    readonly timestamp: string;
    /** true / false, in any case. */
    readonly boolean: string;
  };
  /**
   * How a seed's inferred dates, timestamps and booleans are written.
   * 'text': the CSV's text, which the engine reads as its date, timestamp
   * and boolean types (PostgreSQL). 'python': what dbt-sqlite's Python
   * sqlite3 driver stores for agate's values, on an engine whose column types
   * are only affinities (SQLite): booleans 1 and 0, dates `YYYY-MM-DD`,
   * timestamps `YYYY-MM-DD HH:MM:SS[.ffffff]` (seed-stored-value.ts).
   */
  readonly seedValues: 'text' | 'python';
  /**
   * The family of a declared column type: how values in it compare and
   * convert (SQLite: its type affinity). Schema changes compare families,
   * seeds bind numbers to numeric ones, range seeks need text.
   */
  typeAffinity(declared: string): TypeAffinity;
  /** How many bound parameters one statement may carry (multi-row INSERTs size their batches by it). */
  readonly maxBindParameters: number;

  /** `expr` as text. */
  castText(expr: string): string;
  /**
   * The id the connection's last row of `table` got from its `id` column, as
   * an expression later statements of the same transaction can use
   * (PostgreSQL: the session's value of the column's sequence; SQLite, whose
   * writer holds the database alone: the table's largest id).
   */
  lastInsertedId(table: string): string;
  /**
   * A value (a literal, or null) as a value of the declared column `type`: SQLite keeps it as written (its
   * columns hold any value; affinity converts on insert); PostgreSQL casts it, so that a literal or a null
   * has the column's type and not text. An empty `type` leaves the value as written.
   */
  typed(value: string, type: string): string;
  /** The calendar day (YYYY-MM-DD) of a date or time value, NULL when it is not one. */
  dateOf(expr: string): string;
  /** The partition key of a value: its calendar day when it is a date or time, else the value as text. */
  dayOrText(expr: string): string;
  /** A day number of a YYYY-MM-DD text (subtracting two gives whole days between them). */
  dayNumber(dayExpr: string): string;
  /** The hour of the day (0-23) of a time value; 0 for a date without a time. */
  hourOfDay(expr: string): string;

  /** Whether the value of `expr` is a number (a column may hold values of several types). */
  isNumber(expr: string): string;
  /** The sum of `expr` over the rows, 0.0 when there are none (a float). */
  sumOrZero(expr: string): string;
  /**
   * A condition an index on `expr` can seek that holds for every value that
   * is not text (SQLite sorts numbers before text and blobs after it), so a
   * text range ORed with it still sees every non-text value.
   */
  nonText(expr: string): string;
  /** A FROM item: the texts of a JSON array of texts bound as `param` (e.g. `@days`), as rows of one column `value`, named `alias`. */
  jsonTexts(param: string, alias: string): string;

  /** CREATE TABLE ... AS SELECT (`temp`: in the connection's own temporary schema). */
  createTableAs(relation: string, select: string, options?: { readonly temp?: boolean }): string;
  createView(relation: string, select: string): string;
  /** DROP TABLE / DROP VIEW (if exists). */
  dropRelation(kind: 'table' | 'view', relation: string, options?: { readonly ifExists?: boolean }): string;
  /** Rename a table (`to` is a bare quoted name: the table stays in its schema). */
  renameTable(from: string, to: string): string;
  /** CREATE TABLE with column definitions (`"name" TYPE, ...`). */
  createTable(relation: string, columnDefinitions: string): string;
  /** An empty table with the columns (and the types) of `source`. */
  createEmptyTableLike(relation: string, source: string): string;
  /** CREATE [UNIQUE] INDEX [IF NOT EXISTS] `name` ON `table` (`columns`): quoted names, columns joined. */
  createIndex(options: { readonly name: string; readonly table: string; readonly columns: string; readonly unique?: boolean; readonly ifNotExists?: boolean }): string;
  dropIndex(name: string, options?: { readonly ifExists?: boolean }): string;
  /** ALTER TABLE ADD COLUMN (no type: '' ). */
  addColumn(table: string, column: string, type: string): string;
  /** ALTER TABLE DROP COLUMN (run it inside the connection's withViewsUntouched). */
  dropColumn(table: string, column: string): string;
  /** A relation of the connection's temporary schema, by bare name. */
  tempRelation(name: string): string;

  /**
   * dbt's MERGE of the new rows of `source` (aliased DBT_INTERNAL_SOURCE)
   * into `target` (aliased DBT_INTERNAL_DEST) on equal `keys` and every
   * predicate: each matched row gets its `update` columns from its new row,
   * every new row that matched nothing is inserted (duplicates included), as
   * MERGE's WHEN NOT MATCHED does. See MergeSql for the two forms.
   */
  merge(options: {
    readonly target: string;
    readonly source: string;
    readonly matchTable: string;
    readonly keys: readonly string[];
    readonly columns: readonly string[];
    readonly update: readonly string[];
    readonly predicates: readonly string[];
  }): MergeSql;
}

/**
 * A merge as the engine runs it: one native MERGE statement (an existing row
 * matched by two new rows fails it; Engine.isDoubleMatchError recognises the
 * failure), or, where the engine has no MERGE, steps: `match` pairs each
 * existing row with the new rows that match it into the temp table
 * `matchTable`; `doubleMatch` counts the existing rows matched more than
 * once (refused, as a MERGE refuses them); `update` sets the matched rows
 * (undefined when there is nothing to set); `insert` adds the unmatched new rows.
 */
export type MergeSql =
  | { readonly kind: 'native'; readonly sql: string }
  | { readonly kind: 'steps'; readonly match: string; readonly doubleMatch: string; readonly update?: string; readonly insert: string };
