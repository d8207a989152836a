import { statSync, type Stats } from 'node:fs';
import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import { seedDelimiter } from './seed-delimiter.js';
import { seedEncoding } from './seed-encoding.js';
import { blankHeaderError, checkIndexes, headerColumns, isWhitespaceRecord, type SeedColumn } from './seed-header.js';
import { loadSeedInOnePass } from './seed-one-pass.js';
import { isBlankRecord, withLine } from './seed-record-error.js';
import { SeedRowChecker } from './seed-row-checker.js';
import { SeedStaging, type StagingColumn } from './seed-staging.js';
import { NotPlainCsvError, streamCsvRecords } from './stream-csv-records.js';

export { indexName } from './seed-header.js';

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
  /** The schema it is loaded into (default main). */
  schema?: string;
  /** dbt column_types: SQL type per column; values are validated against it. */
  columnTypes?: Record<string, string>;
  /** dbt's quote_columns: quote the column names in the CREATE TABLE and INSERT (default, and null: true); checked. */
  quoteColumns?: unknown;
  /** Field delimiter, default ','; one character, not a quote or line break (checked). */
  delimiter?: string;
  /** The file's text encoding (a TextDecoder label such as latin1 or utf-16le), default UTF-8; decoded strictly. */
  encoding?: string;
  /** Indexes created on the new table before the swap. */
  indexes?: IndexSpec[];
  /** --empty: the table is created with the file's columns (and types) and no rows. */
  empty?: boolean;
  /** Called inside the transaction right before COMMIT. */
  beforeCommit?: (db: Warehouse) => void;
  /** Called inside the transaction right after BEGIN, before the staging table (a seed's in-transaction pre-hooks). */
  afterBegin?: (db: Warehouse) => void;
  /** How far the load is, for a progress bar: bytes of the CSV read in this stage, then the index build. */
  onProgress?: (progress: SeedProgress) => void;
}

/** 'load': reading and inserting; 'check': the first of two passes (types); 'index': indexes, swap and COMMIT. */
export interface SeedProgress {
  readonly stage: 'load' | 'check' | 'index';
  readonly bytes: number;
  readonly totalBytes: number;
}

export interface SeedLoadResult {
  rows: number;
  columns: { name: string; type: string }[];
  /** The DDL run, in order, for target/run. */
  statements: string[];
}

/**
 * Load a CSV seed into `options.table`, replacing it atomically: every write
 * happens in one transaction, so on any error the old table is left exactly
 * as it was. A plain file (no quotes, no carriage returns) is read once (see
 * seed-one-pass.ts); any other file, or one whose types the first rows guessed
 * wrong, is streamed twice: type inference and validation, then insertion.
 *
 * The transaction stays open across the awaits of the read; loads on the same
 * connection are serialized, but other code must not use the connection
 * while a load is running.
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

interface ScanResult {
  header: string[];
  /** The header's columns with their types and, when inferred, their classes. */
  columns: (SeedColumn & StagingColumn)[];
  rows: number;
  /** The file has no quotes and no carriage returns: pass 2 splits it plainly too. */
  plain: boolean;
}

async function loadSeedNow(db: Warehouse, options: LoadSeedOptions): Promise<SeedLoadResult> {
  const file = options.displayPath;
  // Configs come from yml: check their values, whatever their declared types.
  const delimiter = seedDelimiter(options.delimiter as unknown, file);
  options = { ...options, encoding: seedEncoding(options.encoding as unknown, file) };
  if (options.table === '') throw new ProjectError('the seed table name must not be empty', { location: { file } });

  const before = statFile(options.csvPath, file);
  // --empty needs the column types of the whole file and no rows: the two-pass load, stopped after its scan.
  const loaded = options.empty ? undefined : await loadSeedInOnePass(db, options, delimiter, before, () => changedWhileLoading(file));
  if (loaded) return loaded;
  const scan = await scanSeed(options, delimiter);
  return writeSeed(db, options, delimiter, scan, before);
}

function statFile(path: string, file: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    throw new ProjectError(`cannot read seed file: ${err instanceof Error ? err.message : String(err)}`, { location: { file } });
  }
}

/** Pass 1: header checks, type inference, column_types validation. */
async function scanSeed(options: LoadSeedOptions, delimiter: string): Promise<ScanResult> {
  let header: string[] | undefined;
  let checker: SeedRowChecker | undefined;
  let recordIndex = 0;
  let rows = 0;
  const onRecord = (record: string[]): void => {
    const index = recordIndex++;
    if (header === undefined) {
      // Blank lines before anything else: a file of only whitespace is empty; a header after them is refused.
      if (isWhitespaceRecord(record)) return;
      if (index > 0) throw blankHeaderError(options.displayPath);
      checker = new SeedRowChecker(headerColumns(record, options));
      header = record;
      return;
    }
    if (checker!.accept(record, index)) rows++;
  };
  const onRestart = (): void => {
    header = undefined;
    recordIndex = 0;
    rows = 0;
  };
  const total = statFile(options.csvPath, options.displayPath).size;
  const onBytes = options.onProgress ? (bytes: number) => options.onProgress!({ stage: 'check', bytes, totalBytes: total }) : undefined;
  const { plain } = await withLine(streamCsvRecords({ path: options.csvPath, file: options.displayPath, delimiter, encoding: options.encoding, onRestart, onBytes }, onRecord), options, delimiter);
  if (header === undefined) {
    throw new ProjectError('seed file is empty: expected a header row with the column names', {
      location: { file: options.displayPath },
    });
  }
  const types = checker!.types();
  const classes = checker!.classes();
  const columns = checker!.columns.map((column, c) => ({ ...column, type: types[c]!, cls: classes[c] }));
  return { header, columns, rows, plain };
}

/** Pass 2: one transaction — staging table, inserts, indexes, swap. */
async function writeSeed(db: Warehouse, options: LoadSeedOptions, delimiter: string, scan: ScanResult, before: Stats): Promise<SeedLoadResult> {
  const file = options.displayPath;
  const indexes = checkIndexes(options, scan.header);
  const width = scan.columns.length;
  const staging = new SeedStaging(db, options, scan.columns, indexes);
  if (options.empty) return staging.finish();
  try {
    let header = false;
    let recordIndex = 0;
    const onRecord = (record: string[]): void => {
      const index = recordIndex++;
      if (!header) {
        header = !isWhitespaceRecord(record); // the scan refused anything but blank lines before it
        return;
      }
      if (record.length !== width) {
        if (width > 1 && isBlankRecord(record)) return;
        throw changedWhileLoading(file);
      }
      staging.add(record, index);
    };
    const mode = scan.plain ? 'plain' : 'parse';
    const onBytes = options.onProgress ? (bytes: number) => options.onProgress!({ stage: 'load', bytes, totalBytes: before.size }) : undefined;
    const streamed = streamCsvRecords({ path: options.csvPath, file, delimiter, encoding: options.encoding, mode, onBytes }, onRecord).catch((err: unknown) => {
      throw err instanceof NotPlainCsvError ? changedWhileLoading(file) : err;
    });
    await withLine(streamed, options, delimiter);
    const after = statFile(options.csvPath, file);
    if (staging.rows !== scan.rows || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw changedWhileLoading(file);
    }
  } catch (err) {
    staging.rollback();
    throw err;
  }
  return withLine(Promise.resolve().then(() => staging.finish()), options, delimiter);
}

function changedWhileLoading(file: string): ProjectError {
  return new ProjectError('seed file changed while it was being loaded; nothing was written', {
    location: { file },
    hint: 'run the command again',
  });
}
