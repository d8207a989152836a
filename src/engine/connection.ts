/**
 * One open connection to the warehouse, engine-neutral (see engine.ts for
 * why it is synchronous). Parameters bind as with better-sqlite3: values in
 * order for `?`, an array of them, or one object for named `@name` / `:name`
 * parameters. A statement text holds one statement, except for `exec` and
 * `runScript`.
 */
export type BindParameters = readonly unknown[];

export interface RunResult {
  /** Rows the statement inserted, updated or deleted. */
  readonly changes: number;
  readonly lastInsertRowid: number;
}

/** A statement compiled once and run many times (seed batches, ledger rows): no per-run re-prepare. */
export interface PreparedStatement<Row = unknown> {
  /** Whether it yields rows (a SELECT, or a statement with RETURNING). */
  readonly returnsRows: boolean;
  /** The names of the columns it yields (only when `returnsRows`). */
  columnNames(): string[];
  run(...params: BindParameters): RunResult;
  get(...params: BindParameters): Row | undefined;
  all(...params: BindParameters): Row[];
  iterate(...params: BindParameters): IterableIterator<Row>;
  /** The first column of the first row (undefined without rows). */
  value(...params: BindParameters): unknown;
  /** The first column of every row. */
  values(...params: BindParameters): unknown[];
  /** Every row as an array of its values, in column order. */
  rows(...params: BindParameters): unknown[][];
}

/** What each statement of a batch gave (Connection.runBatch), in order. */
export interface StatementBatch {
  readonly results: readonly { readonly fields: readonly string[]; readonly rows: readonly (readonly unknown[])[]; readonly changes: number }[];
  /** Take the batch's statements back (the transaction stays open, as it was before them). */
  undo(): void;
}

/** Thrown by `prepare` (and the one-statement helpers) for a text holding several statements; nothing of it ran. */
export class MultipleStatementsError extends Error {
  constructor(message = 'the SQL text holds more than one statement') {
    super(message);
    this.name = 'MultipleStatementsError';
  }
}

/**
 * A bulk load (`copyIn`) refused a row: `line` is its 1-based line in the data sent, `column`
 * the column the database named (when it did). Nothing of the load is kept.
 */
export class CopyRowError extends Error {
  constructor(message: string, readonly line: number, readonly column: string | undefined) {
    super(message);
    this.name = 'CopyRowError';
  }
}

/**
 * An open bulk load (Connection.copyIn). `write` may return before the database has taken the
 * data: a row it refuses is reported (CopyRowError, its line counted from the load's first) by a
 * later `write` or by `end`. Nothing else may use the connection until `end` (a rollback abandons it).
 */
export interface BulkLoad {
  write(chunks: readonly string[]): void;
  /** Finish the load; the rows it loaded. */
  end(): number;
}

export interface BulkLoadOptions {
  /**
   * The relation was created in the open transaction (a seed's staging table): no other session
   * can see it before COMMIT, so the engine may write its rows as already committed (PostgreSQL's
   * COPY ... FREEZE: no hint bits to set on the first reads, the visibility map set at once).
   */
  readonly createdInTransaction?: boolean;
}

export interface OpenOptions {
  /** Milliseconds a connection waits for another process's lock before giving up. */
  readonly busyTimeoutMs: number;
  readonly readonly?: boolean;
}

/** The busy timeout used when neither the project nor the command line sets one. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Every connection's SQL has `md5(text)` (lowercase hex, NULL for NULL), as dbt's snapshots need. */
export interface Connection {
  /** The warehouse this connection opened. */
  readonly path: string;
  readonly readonly: boolean;
  /** Whether a transaction is open (after `begin`, or inside `transaction`). */
  readonly inTransaction: boolean;

  /** Run SQL text (one statement or several) and discard any rows. */
  exec(sql: string): void;
  /** Run a script of one or more statements; returns the rows they changed together. */
  runScript(sql: string): number;
  /** Compile one statement (throws MultipleStatementsError for several). */
  prepare<Row = unknown>(sql: string): PreparedStatement<Row>;
  run(sql: string, ...params: BindParameters): RunResult;
  /**
   * Run one statement whose answer nobody reads now (a ledger row): a server
   * engine posts it without waiting, and the connection's next call reads its
   * answer and raises its error (a COMMIT then fails, and the transaction
   * rolls back); an in-process engine runs it at once.
   */
  runDeferred(sql: string, ...params: BindParameters): void;
  get<Row = unknown>(sql: string, ...params: BindParameters): Row | undefined;
  all<Row = unknown>(sql: string, ...params: BindParameters): Row[];
  /** The first column of the first row (undefined without rows). */
  value(sql: string, ...params: BindParameters): unknown;
  /** The first column of every row. */
  values(sql: string, ...params: BindParameters): unknown[];

  /** Start a write transaction, taking the write lock now (waiting up to the busy timeout). */
  begin(): void;
  commit(): void;
  /** Roll back the open transaction, if any. */
  rollback(): void;
  /** Run `fn` in a write transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(fn: () => T): T;

  /** Change how long this connection waits for another process's lock. */
  setBusyTimeout(ms: number): void;
  /**
   * Run DDL that renames or alters a table so that views naming the table
   * keep naming it (and see the new table), instead of being rewritten or
   * refusing the change.
   */
  withViewsUntouched<T>(fn: () => T): T;
  /** Write a consistent copy of a schema (default main) to a new file at `path` (a read-only connection may do it). */
  copyTo(path: string, schema?: string): void;
  close(): void;

  /**
   * Attach the database file `path` as schema `name` (dbt-sqlite's schemas: one file each);
   * nothing when a schema of that name is attached already. A read-only connection attaches read-only.
   */
  attachSchema(name: string, path: string): void;
  /** The names of the attached schemas, main first. */
  attachedSchemas(): string[];

  // Introspection of a schema: main unless `schema` names an attached one (`temp: true` reads the
  // connection's own temporary schema).

  /** Whether `name` exists, and as what. */
  relationKind(name: string, schema?: string): 'table' | 'view' | null;
  /** Columns of a table or view in declaration order (declared types, '' when none). */
  relationColumns(name: string, options?: { readonly temp?: boolean; readonly schema?: string }): { name: string; type: string }[];
  /**
   * The named indexes of a table (columns in order, '' for an expression), not
   * the automatic ones behind UNIQUE / PRIMARY KEY constraints unless
   * `withConstraints`.
   */
  relationIndexes(name: string, options?: { readonly withConstraints?: boolean; readonly schema?: string }): { name: string; columns: string[]; unique: boolean }[];
  /** What owns a schema object name (an index, a table...), matched case-insensitively. */
  schemaObject(name: string, schema?: string): { type: string; table: string } | undefined;
  /** Whether a table of this name exists in the main schema (ledger tables, ...). */
  hasTable(name: string): boolean;
  /**
   * The columns of a SELECT (names, and the types CREATE TABLE AS would give
   * them) without materializing it, where the engine can ask its server
   * (PostgreSQL describes a statement's result). Engines without it leave it
   * out: describe-select.ts probes with a temp table instead.
   */
  describeSelect?(sql: string): { name: string; type: string }[];

  /**
   * Statements of the open transaction sent together (one round trip on a
   * server engine), each one statement without parameters. Undefined when
   * the engine refused one of them (none of them is kept then) or cannot
   * send them so: the caller runs them one at a time, which says which
   * statement failed and why. `undo` takes them all back (a check on their
   * results failed). Engines for which a statement costs no round trip
   * leave it out.
   */
  runBatch?(sqls: readonly string[]): StatementBatch | undefined;

  /**
   * Bulk load: rows into `relation` (its `columns`, SQL as written) through one COPY ... FROM
   * STDIN, fed with `write` calls of text in PostgreSQL's COPY text format (fields tab-separated,
   * \N for NULL, backslash escapes, one line per row) and finished by `end`. Engines without a
   * bulk path leave it out and their callers insert rows instead.
   */
  copyIn?(relation: string, columns: readonly string[], options?: BulkLoadOptions): BulkLoad;
}
