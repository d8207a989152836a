/**
 * Stream the records of a CSV file, header included, to a synchronous
 * callback; memory stays bounded by the read buffers.
 *
 * Most seed files have no quotes and no carriage returns. For those, a record
 * is a line and a field is what lies between delimiters, so the file is split
 * with two native string splits per megabyte-sized chunk instead of running
 * csv-parse's character-by-character state machine (about 5x faster, and
 * what csv-parse would return for such input: test/unit/materialize/
 * stream-csv-records.test.ts checks them against each other). A file with a
 * quote or a carriage return anywhere goes through csv-parse.
 */
import { createReadStream } from 'node:fs';
import { parse, type Options as CsvOptions } from 'csv-parse';
import { ProjectError } from '../errors/project-error.js';

const READ_CHUNK_BYTES = 1 << 20;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

export type CsvRecordHandler = (record: string[]) => void;

/**
 * 'auto': split plain files, parse the others (restarting from the first
 * record, after calling `onRestart`, when a quote or carriage return shows up
 * late). 'plain': split, and throw NotPlainCsvError on a quote or carriage
 * return. 'parse': always csv-parse.
 */
export type CsvReadMode = 'auto' | 'plain' | 'parse';

export interface StreamCsvOptions {
  readonly path: string;
  /** Project-relative path for messages. */
  readonly file: string;
  readonly delimiter: string;
  readonly mode?: CsvReadMode;
  /** 'auto' mode: the records seen so far are void, the file is read again from the start. */
  readonly onRestart?: () => void;
  /** Bytes read so far in this pass (after each chunk; from 0 again after a restart), for a progress bar. */
  readonly onBytes?: (bytes: number) => void;
}

/** A file read in 'plain' mode turned out to have quotes or carriage returns (it changed since it was scanned). */
export class NotPlainCsvError extends Error {}

/** csv-parse options: the file's own quoting, any line ending, ragged rows reported by the caller. */
export function csvOptions(delimiter: string): CsvOptions {
  return { bom: true, delimiter, relax_column_count: true, skip_empty_lines: false };
}

/** Whether the fast splitter applies to this delimiter at all. */
function splittable(delimiter: string): boolean {
  return delimiter !== '' && !/["\r\n]/.test(delimiter);
}

/** Stream every record; resolves with whether the file was split as plain text. */
export async function streamCsvRecords(options: StreamCsvOptions, onRecord: CsvRecordHandler): Promise<{ plain: boolean }> {
  const mode = options.mode ?? 'auto';
  if (mode !== 'parse' && splittable(options.delimiter)) {
    const plain = await splitPlain(options, onRecord);
    if (plain) return { plain: true };
    if (mode === 'plain') throw new NotPlainCsvError(`${options.file} has quotes or carriage returns`);
    options.onRestart?.();
  } else if (mode === 'plain') {
    throw new NotPlainCsvError(`the delimiter ${JSON.stringify(options.delimiter)} cannot be split plainly`);
  }
  await parseRecords(options, onRecord);
  return { plain: false };
}

/** Split a quote-free, CR-free file; resolves false (after stopping) as soon as a chunk has a quote or CR. */
function splitPlain(options: StreamCsvOptions, onRecord: CsvRecordHandler): Promise<boolean> {
  const { delimiter } = options;
  return new Promise((resolve, reject) => {
    const input = createReadStream(options.path, { highWaterMark: READ_CHUNK_BYTES });
    let carry: Buffer | undefined;
    let first = true;
    let done = false;
    let read = 0;
    const finish = (err: unknown, plain = false): void => {
      if (done) return;
      done = true;
      input.destroy();
      if (err === undefined) resolve(plain);
      else reject(toProjectError(err, options.file));
    };
    const emitLines = (text: string): void => {
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) onRecord(lines[i]!.split(delimiter));
    };
    input.on('data', (data: Buffer | string) => {
      if (done) return;
      let chunk = data as Buffer;
      read += chunk.length;
      options.onBytes?.(read);
      try {
        if (first) {
          first = false;
          if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
        }
        if (chunk.indexOf(QUOTE) !== -1 || chunk.indexOf(CR) !== -1) return finish(undefined, false);
        const lastLf = chunk.lastIndexOf(LF);
        if (lastLf === -1) {
          carry = carry ? Buffer.concat([carry, chunk]) : chunk;
          return;
        }
        const head = chunk.subarray(0, lastLf);
        emitLines((carry ? Buffer.concat([carry, head]) : head).toString('utf8'));
        carry = chunk.subarray(lastLf + 1);
      } catch (err) {
        finish(err);
      }
    });
    input.on('error', (err) => finish(err));
    input.on('end', () => {
      if (done) return;
      try {
        // A last line without a newline is a record; a trailing newline ends the file, not a blank record.
        if (carry && carry.length > 0) onRecord(carry.toString('utf8').split(delimiter));
        finish(undefined, true);
      } catch (err) {
        finish(err);
      }
    });
  });
}

function parseRecords(options: StreamCsvOptions, onRecord: CsvRecordHandler): Promise<void> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(options.path, { highWaterMark: READ_CHUNK_BYTES });
    const parser = parse(csvOptions(options.delimiter));
    let done = false;
    const fail = (err: unknown): void => {
      if (done) return;
      done = true;
      input.destroy();
      parser.destroy();
      reject(toProjectError(err, options.file));
    };
    input.on('error', fail);
    parser.on('error', fail);
    let read = 0;
    if (options.onBytes) input.on('data', (chunk: Buffer | string) => options.onBytes!((read += chunk.length)));
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

/** csv-parse and file-system errors as ProjectErrors; anything else (a callback's own error) unchanged. */
function toProjectError(err: unknown, file: string): unknown {
  if (err instanceof ProjectError) return err;
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

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
