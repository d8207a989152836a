import { createReadStream, statSync, type Stats } from 'node:fs';
import { parse, type Options as CsvOptions } from 'csv-parse';
import type { Warehouse } from '../db/open-warehouse.js';
import { quoteIdentifier } from '../db/quote-identifier.js';
import { relationKind } from '../db/relation-kind.js';
import { swapRelation } from '../db/swap-relation.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { ProjectError } from '../errors/project-error.js';
import {
  classifyValue,
  declaredTypeCheck,
  fitsDeclaredType,
  foldIdentifier,
  inferredType,
  isSafeSqlType,
  ValueClass,
  type ValueCheck,
} from './seed-types.js';

export interface IndexSpec {
  columns: string[];
  unique?: boolean;
}

export interface LoadSeedOptions {
  /** Absolute path of the CSV file. */
  csvPath: string;
  /** Project-relative path used in messages, e.g. seeds/raw_orders.csv. */
  displayPath: string;
  /** Target relation name (unquoted). */
  table: string;
  /** dbt column_types: SQL type per column; values are validated against it. */
  columnTypes?: Record<string, string>;
  /** Field delimiter, default ','. */
  delimiter?: string;
  /** Indexes created on the new table before the swap. */
  indexes?: IndexSpec[];
  /** Called inside the transaction right before COMMIT. */
  beforeCommit?: (db: Warehouse) => void;
}

export interface SeedLoadResult {
  rows: number;
  columns: { name: string; type: string }[];
  /** The DDL run, in order, for target/run. */
  statements: string[];
}

/** Rows per prepared multi-row INSERT (fewer for very wide tables). */
const ROWS_PER_INSERT = 200;
/** SQLite's default SQLITE_MAX_VARIABLE_NUMBER since 3.32. */
const MAX_BOUND_PARAMETERS = 32766;
const READ_CHUNK_BYTES = 1 << 20;

/** Deterministic index name: `<table>__idx__<col1>__<col2>`. */
export function indexName(table: string, index: IndexSpec): string {
  return `${table}__idx__${index.columns.join('__')}`;
}

/** Temporary relation the new rows are loaded into before the swap. */
function stagingName(table: string): string {
  return `${table}__mini_dbt_tmp`;
}

/**
 * Load a CSV seed into `options.table`, replacing it atomically: the file is
 * streamed twice (type inference and validation, then insertion) and every
 * write happens in one transaction, so on any error the old table is left
 * exactly as it was.
 *
 * The transaction stays open across the awaits of the second pass; loads on
 * the same connection are serialized, but other code must not use the
 * connection while a load is running.
 */
export async function loadSeed(db: Warehouse, options: LoadSeedOptions): Promise<SeedLoadResult> {
  const previous = connectionLocks.get(db) ?? Promise.resolve();
  const run = previous.then(
    () => loadSeedNow(db, options),
    () => loadSeedNow(db, options),
  );
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  connectionLocks.set(db, settled);
  void settled.then(() => {
    if (connectionLocks.get(db) === settled) connectionLocks.delete(db);
  });
  return await run;
}

const connectionLocks = new WeakMap<Warehouse, Promise<void>>();

interface SeedColumn {
  name: string;
  type: string;
  /** Validation for a declared type; undefined when the type is inferred. */
  check: ValueCheck | undefined;
}

interface ScanResult {
  header: string[];
  columns: SeedColumn[];
  rows: number;
}

async function loadSeedNow(db: Warehouse, options: LoadSeedOptions): Promise<SeedLoadResult> {
  const file = options.displayPath;
  const delimiter = options.delimiter ?? ',';
  if (delimiter === '') throw new ProjectError('the seed delimiter must not be empty', { location: { file } });
  if (options.table === '') throw new ProjectError('the seed table name must not be empty', { location: { file } });

  const before = statFile(options.csvPath, file);
  const scan = await scanSeed(options, delimiter);
  const indexes = checkIndexes(options, scan.header);
  return writeSeed(db, options, delimiter, scan, indexes, before);
}

function statFile(path: string, file: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    throw new ProjectError(`cannot read seed file: ${errorMessage(err)}`, { location: { file } });
  }
}

// ---------------------------------------------------------------------------
// CSV streaming

/** An error in a data record whose line is only looked up once it happens. */
class RecordError extends Error {
  constructor(
    readonly recordIndex: number,
    readonly describe: string,
  ) {
    super(describe);
  }
}

function csvOptions(delimiter: string): CsvOptions {
  return {
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: false,
  };
}

/**
 * Stream the records of a CSV file (header included) to `onRecord`, which
 * runs synchronously; memory stays bounded by the stream buffers. An
 * exception from `onRecord` stops the stream and rejects.
 */
function streamRecords(path: string, file: string, delimiter: string, onRecord: (record: string[]) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
    const parser = parse(csvOptions(delimiter));
    let done = false;
    const fail = (err: unknown): void => {
      if (done) return;
      done = true;
      input.destroy();
      parser.destroy();
      reject(toProjectError(err, file));
    };
    input.on('error', fail);
    parser.on('error', fail);
    parser.on('readable', () => {
      if (done) return;
      try {
        let record: string[] | null;
        while ((record = parser.read() as string[] | null) !== null) {
          onRecord(record);
          if (done) return;
        }
      } catch (err) {
        fail(err);
      }
    });
    parser.on('end', () => {
      if (done) return;
      done = true;
      resolve();
    });
    input.pipe(parser);
  });
}

function toProjectError(err: unknown, file: string): unknown {
  if (err instanceof ProjectError || err instanceof RecordError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('CSV_')) {
    const lines = (err as { lines?: unknown }).lines;
    return new ProjectError(`invalid CSV: ${errorMessage(err)}`, {
      location: { file, line: typeof lines === 'number' ? lines : undefined },
    });
  }
  if (typeof code === 'string' && (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')) {
    return new ProjectError(`cannot read seed file: ${errorMessage(err)}`, { location: { file } });
  }
  return err;
}

/**
 * The line a record starts on (1-based), found by parsing the file again up to
 * that record. Only used to report an error, so the fast passes need not
 * track lines.
 */
function locateRecordLine(path: string, delimiter: string, recordIndex: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    let index = 0;
    let startLine = 1;
    let found: number | undefined;
    const input = createReadStream(path, { highWaterMark: READ_CHUNK_BYTES });
    const parser = parse({
      ...csvOptions(delimiter),
      on_record: (record: string[], info) => {
        if (index === recordIndex) found = startLine;
        index++;
        startLine = info.lines + 1;
        return found === undefined ? null : record;
      },
    });
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      input.destroy();
      parser.destroy();
      resolve(found);
    };
    parser.on('data', () => {
      if (found !== undefined) finish();
    });
    parser.on('end', finish);
    parser.on('error', finish);
    input.on('error', finish);
    input.pipe(parser);
  });
}

async function withLine<T>(work: Promise<T>, options: LoadSeedOptions, delimiter: string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof RecordError)) throw err;
    const line = await locateRecordLine(options.csvPath, delimiter, err.recordIndex);
    throw new ProjectError(err.describe, {
      location: { file: options.displayPath, line },
    });
  }
}

/** A record that is a blank line (skipped when the header has several columns). */
function isBlankRecord(record: string[]): boolean {
  return record.length === 1 && record[0] === '';
}

function raggedRow(recordIndex: number, expected: number, actual: number): RecordError {
  return new RecordError(
    recordIndex,
    `row has ${actual} field${actual === 1 ? '' : 's'} but the header has ${expected} column${expected === 1 ? '' : 's'}`,
  );
}

// ---------------------------------------------------------------------------
// Pass 1: header checks, type inference, column_types validation

function scanSeed(options: LoadSeedOptions, delimiter: string): Promise<ScanResult> {
  let header: string[] | undefined;
  let columns: SeedColumn[] = [];
  let width = 0;
  let states = new Uint8Array(0);
  let checks: (ValueCheck | undefined)[] = [];
  let hasChecks = false;
  let recordIndex = 0;
  let rows = 0;

  const onRecord = (record: string[]): void => {
    const index = recordIndex++;
    if (header === undefined) {
      header = record;
      columns = headerColumns(record, options);
      width = columns.length;
      states = new Uint8Array(width);
      checks = columns.map((c) => c.check);
      hasChecks = checks.some((c) => c !== undefined && c !== 'text');
      return;
    }
    if (record.length !== width) {
      if (width > 1 && isBlankRecord(record)) return;
      throw raggedRow(index, width, record.length);
    }
    for (let c = 0; c < width; c++) {
      const state = states[c]!;
      if (state === ValueClass.Text && !hasChecks) continue;
      const value = record[c]!;
      if (value === '' || value === 'null') continue;
      if (state !== ValueClass.Text) {
        const cls = classifyValue(value);
        if (cls > state) states[c] = cls;
      }
      if (hasChecks) {
        const check = checks[c];
        if (check !== undefined && !fitsDeclaredType(value, check)) {
          throw new RecordError(
            index,
            `value ${quoteForMessage(value)} in column ${quoteForMessage(columns[c]!.name)} is not a valid ${columns[c]!.type} (column_types)`,
          );
        }
      }
    }
    rows++;
  };

  const work = streamRecords(options.csvPath, options.displayPath, delimiter, onRecord).then((): ScanResult => {
    if (header === undefined) {
      throw new ProjectError('seed file is empty: expected a header row with the column names', {
        location: { file: options.displayPath },
      });
    }
    for (let c = 0; c < width; c++) {
      const column = columns[c]!;
      if (column.check === undefined) column.type = inferredType(states[c] as ValueClass);
    }
    return { header, columns, rows };
  });
  return withLine(work, options, delimiter);
}

/** Validate the header and resolve column_types; throws ProjectError at line 1. */
function headerColumns(header: string[], options: LoadSeedOptions): SeedColumn[] {
  const file = options.displayPath;
  const seen = new Map<string, number>();
  header.forEach((name, i) => {
    if (name === '') {
      throw new ProjectError(`column ${i + 1} of the header has an empty name`, { location: { file, line: 1 } });
    }
    const folded = foldIdentifier(name);
    const first = seen.get(folded);
    if (first !== undefined) {
      throw new ProjectError(
        `duplicate column name ${quoteForMessage(name)} (columns ${first + 1} and ${i + 1}; names are case-insensitive)`,
        { location: { file, line: 1 } },
      );
    }
    seen.set(folded, i);
  });

  const declared = new Map<number, string>();
  for (const [name, type] of Object.entries(options.columnTypes ?? {})) {
    const position = header.indexOf(name) >= 0 ? header.indexOf(name) : seen.get(foldIdentifier(name));
    if (position === undefined) {
      throw new ProjectError(
        `column_types names column ${quoteForMessage(name)}, which is not in the header; the columns are: ${header.join(', ')}.${didYouMeanSuffix(name, header)}`,
        { location: { file } },
      );
    }
    if (typeof type !== 'string' || !isSafeSqlType(type)) {
      throw new ProjectError(
        `column_types for column ${quoteForMessage(name)} is not a valid SQL type: ${JSON.stringify(type)}`,
        { location: { file } },
      );
    }
    if (declared.has(position)) {
      throw new ProjectError(`column_types names column ${quoteForMessage(header[position]!)} twice`, { location: { file } });
    }
    declared.set(position, type.trim());
  }

  return header.map((name, i) => {
    const type = declared.get(i);
    return type === undefined ? { name, type: 'TEXT', check: undefined } : { name, type, check: declaredTypeCheck(type) };
  });
}

interface ResolvedIndex {
  name: string;
  columns: string[];
  unique: boolean;
}

/** Check index specs against the header (before any write). */
function checkIndexes(options: LoadSeedOptions, header: string[]): ResolvedIndex[] {
  const file = options.displayPath;
  const byFolded = new Map(header.map((name) => [foldIdentifier(name), name]));
  const names = new Set<string>();
  return (options.indexes ?? []).map((spec) => {
    if (spec.columns.length === 0) throw new ProjectError('an index on a seed needs at least one column', { location: { file } });
    const columns = spec.columns.map((column) => {
      const real = header.includes(column) ? column : byFolded.get(foldIdentifier(column));
      if (real === undefined) {
        throw new ProjectError(
          `index column ${quoteForMessage(column)} is not in the header; the columns are: ${header.join(', ')}.${didYouMeanSuffix(column, header)}`,
          { location: { file } },
        );
      }
      return real;
    });
    const name = indexName(options.table, spec);
    if (names.has(foldIdentifier(name))) {
      throw new ProjectError(`two indexes on seed ${quoteForMessage(options.table)} have the same name ${quoteForMessage(name)}`, {
        location: { file },
      });
    }
    names.add(foldIdentifier(name));
    return { name, columns, unique: spec.unique === true };
  });
}

// ---------------------------------------------------------------------------
// Pass 2: one transaction — staging table, inserts, indexes, swap

async function writeSeed(
  db: Warehouse,
  options: LoadSeedOptions,
  delimiter: string,
  scan: ScanResult,
  indexes: ResolvedIndex[],
  before: Stats,
): Promise<SeedLoadResult> {
  const file = options.displayPath;
  const target = options.table;
  const staging = stagingName(target);
  const { columns } = scan;
  const width = columns.length;
  const statements: string[] = [];
  const exec = (sql: string): void => {
    db.exec(sql);
    statements.push(sql);
  };

  db.exec('BEGIN IMMEDIATE');
  try {
    const leftover = relationKind(db, staging);
    if (leftover) exec(`drop ${leftover} ${quoteIdentifier(staging)}`);
    for (const index of indexes) dropIndexOfOldTable(db, index.name, target, file, exec);

    const columnList = columns.map((c) => quoteIdentifier(c.name)).join(', ');
    exec(`create table ${quoteIdentifier(staging)} (${columns.map((c) => `${quoteIdentifier(c.name)} ${c.type}`).join(', ')})`);

    const rowsPerInsert = Math.max(1, Math.min(ROWS_PER_INSERT, Math.floor(MAX_BOUND_PARAMETERS / width)));
    const rowPlaceholders = `(${new Array<string>(width).fill('?').join(', ')})`;
    const insertSql = (rowCount: number): string =>
      `insert into ${quoteIdentifier(staging)} (${columnList}) values ${new Array<string>(rowCount).fill(rowPlaceholders).join(', ')}`;
    const batchInsert = db.prepare(insertSql(rowsPerInsert));
    const params: (string | null)[] = new Array<string | null>(rowsPerInsert * width).fill(null);

    let buffered = 0;
    let inserted = 0;
    let recordIndex = 0;
    const onRecord = (record: string[]): void => {
      if (recordIndex++ === 0) return; // header
      if (record.length !== width) {
        if (width > 1 && isBlankRecord(record)) return;
        throw changedWhileLoading(file);
      }
      let p = buffered * width;
      for (let c = 0; c < width; c++) {
        const value = record[c]!;
        params[p++] = value === '' || value === 'null' ? null : value;
      }
      if (++buffered === rowsPerInsert) {
        batchInsert.run(params);
        inserted += rowsPerInsert;
        buffered = 0;
      }
    };
    await streamRecords(options.csvPath, file, delimiter, onRecord);
    if (buffered > 0) {
      db.prepare(insertSql(buffered)).run(params.slice(0, buffered * width));
      inserted += buffered;
    }
    const after = statFile(options.csvPath, file);
    if (inserted !== scan.rows || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw changedWhileLoading(file);
    }

    for (const index of indexes) {
      const sql = `create ${index.unique ? 'unique ' : ''}index ${quoteIdentifier(index.name)} on ${quoteIdentifier(staging)} (${index.columns.map(quoteIdentifier).join(', ')})`;
      try {
        exec(sql);
      } catch (err) {
        throw new ProjectError(`cannot create index ${quoteForMessage(index.name)} on seed ${quoteForMessage(target)}: ${errorMessage(err)}`, {
          location: { file },
        });
      }
    }

    statements.push(...swapRelation(db, staging, target));
    options.beforeCommit?.(db);
    db.exec('COMMIT');
    return { rows: inserted, columns: columns.map((c) => ({ name: c.name, type: c.type })), statements };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Index names are global in SQLite: an index of the old table with the name
 * the new table's index will get is dropped (inside the transaction, so a
 * rollback restores it). A same-named object on another table is an error.
 */
function dropIndexOfOldTable(db: Warehouse, name: string, target: string, file: string, exec: (sql: string) => void): void {
  const row = db.prepare('select type, tbl_name from main.sqlite_master where name = ? collate nocase').get(name) as
    | { type: string; tbl_name: string }
    | undefined;
  if (!row) return;
  if (row.type === 'index' && foldIdentifier(row.tbl_name) === foldIdentifier(target)) {
    exec(`drop index ${quoteIdentifier(name)}`);
    return;
  }
  throw new ProjectError(
    `cannot create index ${quoteForMessage(name)}: the name is already used by ${row.type} on ${quoteForMessage(row.tbl_name)}`,
    { location: { file } },
  );
}

function changedWhileLoading(file: string): ProjectError {
  return new ProjectError('seed file changed while it was being loaded; nothing was written', {
    location: { file },
    hint: 'run the command again',
  });
}

function quoteForMessage(value: string): string {
  return `'${value}'`;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
