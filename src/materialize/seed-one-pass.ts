/**
 * A seed load in one read of the file, for plain files (no quotes, no
 * carriage returns): the column types are inferred from a first sample of
 * rows, the staging table is created with them, and the rest of the rows are
 * checked (ragged rows, column_types) and inferred while they are inserted.
 * If the whole file infers the same types as the sample, and on SQLite the
 * same stored forms of dates, timestamps and booleans (the common case;
 * always when every column is declared) the result is exactly what the two
 * passes give. Otherwise, or when a quote or carriage return shows up, the
 * transaction rolls back and the caller falls back to the two passes.
 *
 * A file that fits in the sample is checked completely before the database
 * is touched, like the two-pass load.
 */
import { statSync, type Stats } from 'node:fs';
import type { Warehouse } from '../engine/open-warehouse.js';
import { blankHeaderError, checkIndexes, headerColumns, isWhitespaceRecord, type ResolvedIndex, type SeedColumn } from './seed-header.js';
import { withLine } from './seed-record-error.js';
import { SeedRowChecker } from './seed-row-checker.js';
import { SeedStaging } from './seed-staging.js';
import { storedFormsDiffer } from './seed-stored-value.js';
import type { LoadSeedOptions, SeedLoadResult } from './seed.js';
import { NotPlainCsvError, streamCsvRecords } from './stream-csv-records.js';

const SAMPLE_ROWS = 10_000;
const SAMPLE_FIELDS = 200_000;

/** Load the seed in one pass, or resolve null when it needs the two-pass load (nothing written then). */
export async function loadSeedInOnePass(
  db: Warehouse,
  options: LoadSeedOptions,
  delimiter: string,
  before: Stats,
  changedWhileLoading: () => Error,
): Promise<SeedLoadResult | null> {
  let columns: SeedColumn[] | undefined;
  let indexes: ResolvedIndex[] = [];
  let checker: SeedRowChecker | undefined;
  let staging: SeedStaging | undefined;
  let sample: string[][] = [];
  let sampleIndexes: number[] = [];
  let recordIndex = 0;
  /** The checker's widenings when the staging table was created with the sample's types. */
  let widenedAtStart = 0;

  const startStaging = (c: SeedColumn[]): SeedStaging => {
    const types = checker!.types();
    const classes = checker!.classes();
    const started = new SeedStaging(db, options, c.map((column, i) => ({ name: column.name, type: types[i]!, cls: classes[i] })), indexes);
    widenedAtStart = checker!.widenings;
    sample.forEach((record, i) => started.add(record, sampleIndexes[i]!));
    sample = [];
    sampleIndexes = [];
    return started;
  };
  const onRecord = (record: string[]): void => {
    const index = recordIndex++;
    if (columns === undefined) {
      if (isWhitespaceRecord(record)) return;
      if (index > 0) throw blankHeaderError(options.displayPath);
      columns = headerColumns(record, options);
      indexes = checkIndexes(options, record);
      checker = new SeedRowChecker(columns);
      return;
    }
    if (!checker!.accept(record, index)) return;
    if (staging) {
      // A type the sample did not show: the table's types are wrong (a bulk load would refuse the row), so stop now.
      if (checker!.widenings !== widenedAtStart) throw new TypesWidened();
      staging.add(record, index);
    } else {
      sample.push(record);
      sampleIndexes.push(index);
      if (sample.length >= SAMPLE_ROWS || sample.length * columns.length >= SAMPLE_FIELDS) staging = startStaging(columns);
    }
  };

  try {
    const onBytes = options.onProgress ? (bytes: number) => options.onProgress!({ stage: 'load', bytes, totalBytes: before.size }) : undefined;
    await withLine(streamCsvRecords({ path: options.csvPath, file: options.displayPath, delimiter, encoding: options.encoding, mode: 'plain', onBytes }, onRecord), options, delimiter);
  } catch (err) {
    staging?.rollback();
    if (err instanceof NotPlainCsvError || err instanceof TypesWidened) return null;
    throw err;
  }
  if (columns === undefined) return null; // empty file: the two-pass load says so
  staging ??= startStaging(columns);
  const types = checker!.types();
  const classes = checker!.classes();
  if (types.some((type, i) => type !== staging!.types[i]) || classes.some((cls, i) => cls !== undefined && storedFormsDiffer(cls, staging!.classes[i]!))) {
    staging.rollback();
    return null;
  }
  const after = statSync(options.csvPath, { throwIfNoEntry: false });
  if (!after || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
    staging.rollback();
    throw changedWhileLoading();
  }
  const finishing = staging;
  return withLine(Promise.resolve().then(() => finishing.finish()), options, delimiter);
}

/** A row showed a wider type than the sample's: the one-pass load gives way to the two passes. */
class TypesWidened extends Error {}
