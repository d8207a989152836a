/**
 * Errors in a seed's data records. The fast passes only count records; the
 * line a bad record starts on is looked up (by parsing the file again) once an
 * error happens.
 */
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { ProjectError } from '../errors/project-error.js';
import { decodingStream, DEFAULT_SEED_ENCODING } from './seed-encoding.js';
import { csvOptions } from './stream-csv-records.js';

/** An error in a data record whose line is only looked up once it happens. */
export class RecordError extends Error {
  constructor(
    readonly recordIndex: number,
    readonly describe: string,
  ) {
    super(describe);
  }
}

export function raggedRow(recordIndex: number, expected: number, actual: number): RecordError {
  return new RecordError(
    recordIndex,
    `row has ${actual} field${actual === 1 ? '' : 's'} but the header has ${expected} column${expected === 1 ? '' : 's'}`,
  );
}

/** A record that is a blank line (skipped when the header has several columns). */
export function isBlankRecord(record: string[]): boolean {
  return record.length === 1 && record[0] === '';
}

export function quoteForMessage(value: string): string {
  return `'${value}'`;
}

/** Turn a RecordError from `work` into a ProjectError at the record's line. */
export async function withLine<T>(work: Promise<T>, csv: { csvPath: string; displayPath: string; encoding?: string }, delimiter: string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof RecordError)) throw err;
    const line = await locateRecordLine(csv.csvPath, delimiter, err.recordIndex, csv.encoding ?? DEFAULT_SEED_ENCODING);
    throw new ProjectError(err.describe, {
      location: { file: csv.displayPath, line },
    });
  }
}

/**
 * The line a record starts on (1-based), found by parsing the file again up to
 * that record. Only used to report an error, so the fast passes need not
 * track lines.
 */
function locateRecordLine(path: string, delimiter: string, recordIndex: number, encoding: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    let index = 0;
    let startLine = 1;
    let found: number | undefined;
    const input = createReadStream(path, { highWaterMark: 1 << 20 });
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
      text.destroy();
      parser.destroy();
      resolve(found);
    };
    parser.on('data', () => {
      if (found !== undefined) finish();
    });
    parser.on('end', finish);
    parser.on('error', finish);
    const text = decodingStream(encoding);
    input.on('error', finish);
    text.on('error', finish);
    input.pipe(text).pipe(parser);
  });
}
