import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { rewriteForSqlite } from './sqlite-rewrites.js';
import { convertTimezoneSql } from './sqlite-convert-timezone.js';
import { regexpReplaceSql } from './sqlite-regexp-replace.js';
import { MultipleStatementsError, type BindParameters, type Connection, type OpenOptions, type PreparedStatement, type RunResult } from '../connection.js';

type Driver = typeof Database;
let driver: Driver | undefined;

/** better-sqlite3, loaded on the first open (a native addon: commands that never open a warehouse never load it). */
function loadDriver(): Driver {
  return (driver ??= createRequire(import.meta.url)('better-sqlite3') as Driver);
}

/** better-sqlite3 refuses a text holding a second statement with this RangeError. */
function prepareOne(db: Database.Database, sql: string): Database.Statement {
  try {
    return db.prepare(rewriteForSqlite(sql));
  } catch (err) {
    if (err instanceof RangeError && /more than one statement/.test(err.message)) throw new MultipleStatementsError(err.message);
    throw err;
  }
}

/** A schema name as SQL (`"name"`). */
const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const runResult = (info: Database.RunResult): RunResult => ({ changes: info.changes, lastInsertRowid: Number(info.lastInsertRowid) });

class SqliteStatement<Row> implements PreparedStatement<Row> {
  private plucked: Database.Statement | undefined;
  private raw: Database.Statement | undefined;

  constructor(private readonly db: Database.Database, private readonly sql: string, private readonly statement: Database.Statement) {}

  get returnsRows(): boolean {
    return this.statement.reader;
  }

  columnNames(): string[] {
    return this.statement.columns().map((c) => c.name);
  }

  run(...params: BindParameters): RunResult {
    return runResult(this.statement.run(...params));
  }

  get(...params: BindParameters): Row | undefined {
    return this.statement.get(...params) as Row | undefined;
  }

  all(...params: BindParameters): Row[] {
    return this.statement.all(...params) as Row[];
  }

  iterate(...params: BindParameters): IterableIterator<Row> {
    return this.statement.iterate(...params) as IterableIterator<Row>;
  }

  value(...params: BindParameters): unknown {
    return (this.plucked ??= this.db.prepare(this.sql).pluck()).get(...params);
  }

  values(...params: BindParameters): unknown[] {
    return (this.plucked ??= this.db.prepare(this.sql).pluck()).all(...params);
  }

  rows(...params: BindParameters): unknown[][] {
    return (this.raw ??= this.db.prepare(this.sql).raw(true)).all(...params) as unknown[][];
  }
}

/** A Connection on a better-sqlite3 database: a thin layer, no per-row work. */
export class SqliteConnection implements Connection {
  readonly readonly: boolean;

  constructor(readonly path: string, private readonly db: Database.Database) {
    this.readonly = db.readonly;
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  exec(sql: string): void {
    this.db.exec(rewriteForSqlite(sql));
  }

  runScript(sql: string): number {
    const changes = this.db.prepare('select total_changes()').pluck();
    const before = Number(changes.get());
    this.db.exec(rewriteForSqlite(sql));
    return Number(changes.get()) - before;
  }

  prepare<Row = unknown>(sql: string): PreparedStatement<Row> {
    const text = rewriteForSqlite(sql);
    return new SqliteStatement<Row>(this.db, text, prepareOne(this.db, text));
  }

  run(sql: string, ...params: BindParameters): RunResult {
    return runResult(prepareOne(this.db, sql).run(...params));
  }

  runDeferred(sql: string, ...params: BindParameters): void {
    prepareOne(this.db, sql).run(...params);
  }

  get<Row = unknown>(sql: string, ...params: BindParameters): Row | undefined {
    return prepareOne(this.db, sql).get(...params) as Row | undefined;
  }

  all<Row = unknown>(sql: string, ...params: BindParameters): Row[] {
    return prepareOne(this.db, sql).all(...params) as Row[];
  }

  value(sql: string, ...params: BindParameters): unknown {
    return prepareOne(this.db, sql).pluck().get(...params);
  }

  values(sql: string, ...params: BindParameters): unknown[] {
    return prepareOne(this.db, sql).pluck().all(...params);
  }

  begin(): void {
    this.db.exec('BEGIN IMMEDIATE');
  }

  commit(): void {
    this.db.exec('COMMIT');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  setBusyTimeout(ms: number): void {
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`);
  }

  /**
   * SQLite rewrites view text on ALTER TABLE ... RENAME and refuses a rename
   * while a view names a missing table; with legacy_alter_table on, it does
   * neither.
   */
  withViewsUntouched<T>(fn: () => T): T {
    const legacy = this.db.pragma('legacy_alter_table', { simple: true });
    this.db.pragma('legacy_alter_table = ON');
    try {
      return fn();
    } finally {
      this.db.pragma(`legacy_alter_table = ${legacy ? 'ON' : 'OFF'}`);
    }
  }

  /** VACUUM INTO: a consistent, compact copy, from a read-only connection too. */
  copyTo(path: string, schema = 'main'): void {
    this.db.prepare(`vacuum ${quoteName(schema)} into ?`).run(path);
  }

  close(): void {
    this.db.close();
  }

  attachSchema(name: string, path: string): void {
    if (this.attachedSchemas().some((s) => s.toLowerCase() === name.toLowerCase())) return;
    this.db.prepare('attach database ? as ' + quoteName(name)).run(path);
    if (!this.readonly) this.db.pragma(`${quoteName(name)}.journal_mode = WAL`);
    this.db.pragma(`${quoteName(name)}.mmap_size = ${MMAP_BYTES}`);
  }

  attachedSchemas(): string[] {
    return (this.db.prepare("select name from pragma_database_list where name <> 'temp' order by seq").pluck().all() as string[]);
  }

  /** Whether `schema` can be read: main always, another only while attached. */
  private readable(schema: string): boolean {
    return schema === 'main' || this.attachedSchemas().some((s) => s.toLowerCase() === schema.toLowerCase());
  }

  relationKind(name: string, schema = 'main'): 'table' | 'view' | null {
    if (!this.readable(schema)) return null;
    const row = this.db.prepare(`select type from ${quoteName(schema)}.sqlite_master where name = ? and type in ('table', 'view')`).get(name) as { type: 'table' | 'view' } | undefined;
    return row ? row.type : null;
  }

  relationColumns(name: string, options?: { readonly temp?: boolean; readonly schema?: string }): { name: string; type: string }[] {
    if (!options?.temp && !this.readable(options?.schema ?? 'main')) return [];
    const rows = this.db.prepare('select name, type from pragma_table_info(?, ?)').all(name, options?.temp ? 'temp' : (options?.schema ?? 'main')) as { name: string; type: string | null }[];
    return rows.map((r) => ({ name: r.name, type: r.type ?? '' }));
  }

  relationIndexes(name: string, options?: { readonly withConstraints?: boolean; readonly schema?: string }): { name: string; columns: string[]; unique: boolean }[] {
    const schema = options?.schema ?? 'main';
    const list = this.db.prepare(`select name, "unique" as u from pragma_index_list(?, ?)${options?.withConstraints ? '' : " where origin = 'c'"}`).all(name, schema) as { name: string; u: number }[];
    const info = this.db.prepare('select name from pragma_index_info(?, ?) order by seqno').pluck();
    return list.map((i) => ({
      name: i.name,
      unique: i.u === 1,
      // An expression index has no column name (NULL).
      columns: (info.all(i.name, schema) as (string | null)[]).map((c) => c ?? ''),
    }));
  }

  schemaObject(name: string, schema = 'main'): { type: string; table: string } | undefined {
    const row = this.db.prepare(`select type, tbl_name from ${quoteName(schema)}.sqlite_master where name = ? collate nocase`).get(name) as { type: string; tbl_name: string } | undefined;
    return row ? { type: row.type, table: row.tbl_name } : undefined;
  }

  hasTable(name: string): boolean {
    return this.db.prepare("select 1 from main.sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
  }
}

/**
 * Pages are read through a memory map of the file rather than copied into
 * each connection's own page cache (2 MB by default): every command opens a
 * fresh connection, whose first reads then cost what the operating system's
 * cache costs, not a system call and a copy per page, and a scan of more
 * pages than the cache holds (a count over the 1.2M-row history: 4,000 pages)
 * is not read again every time (13 ms copied, 0.2 ms mapped). Reads only:
 * SQLite still writes with write(). The address space is reserved, not
 * memory; a file larger than this is mapped up to it and read as before past it.
 */
const MMAP_BYTES = 1 << 30;

/** Open a SQLite file (or ':memory:') in WAL mode, so readers keep working while a run writes. */
export function openSqlite(path: string, options: OpenOptions): SqliteConnection {
  const Driver = loadDriver();
  const db = new Driver(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
    if (!options.readonly) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = OFF');
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    // md5(text): the hex digest dbt's snapshot_hash_arguments calls (dbt_scd_id); SQLite has none of its own.
    db.function('md5', { deterministic: true }, (value: unknown) => (value === null || value === undefined ? null : createHash('md5').update(String(value)).digest('hex')));
    // convert_timezone([source,] target, ts), Snowflake's and Redshift's: the zone rules SQLite lacks, from Node's Intl.
    db.function('convert_timezone', { deterministic: true, varargs: true }, convertTimezoneSql);
    // regexp_replace(source, pattern, replacement [, flags]), PostgreSQL's: packages written for PostgreSQL, DuckDB, Snowflake call it.
    db.function('regexp_replace', { deterministic: true, varargs: true }, regexpReplaceSql);
    // Touch the schema so a file that is not a database fails here, clearly.
    db.prepare('select count(*) from sqlite_master').get();
  } catch (err) {
    db.close();
    throw err;
  }
  return new SqliteConnection(path, db);
}

/** SQLite saying another connection holds the lock (after the busy timeout). */
export function isSqliteBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || (err instanceof Error && /database is locked/.test(err.message));
}

