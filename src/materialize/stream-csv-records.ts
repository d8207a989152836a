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
 *
 * Both decode the bytes strictly in the seed's encoding (UTF-8 unless it
 * declares another; see seed-encoding.ts): bytes that are not text are an
 * error at their line, never a silent U+FFFD.
 */
import { createReadStream } from 'node:fs';
import { CsvError, parse, type Options as CsvOptions } from 'csv-parse';
import { ProjectError } from '../errors/project-error.js';
import { decodingStream, DEFAULT_SEED_ENCODING, strictDecoder, undecodableError, UndecodableText } from './seed-encoding.js';

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
  /** A TextDecoder label (default utf-8), already checked. */
  readonly encoding?: string;
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
  try {
    return await streamRecords(options, onRecord);
  } catch (err) {
    if (err instanceof UndecodableText) throw await undecodableError(options.path, options.file, options.encoding ?? DEFAULT_SEED_ENCODING);
    throw err;
  }
}

async function streamRecords(options: StreamCsvOptions, onRecord: CsvRecordHandler): Promise<{ plain: boolean }> {
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
    const lines = lineCutter(options.encoding ?? DEFAULT_SEED_ENCODING);
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
      const split = text.split('\n');
      for (let i = 0; i < split.length; i++) onRecord(split[i]!.split(delimiter));
    };
    input.on('data', (data: Buffer | string) => {
      if (done) return;
      const chunk = data as Buffer;
      read += chunk.length;
      options.onBytes?.(read);
      try {
        const text = lines.push(chunk);
        if (text === NOT_PLAIN) return finish(undefined, false);
        if (text !== undefined) emitLines(text);
      } catch (err) {
        finish(err);
      }
    });
    input.on('error', (err) => finish(err));
    input.on('end', () => {
      if (done) return;
      try {
        const rest = lines.end();
        if (rest === NOT_PLAIN) return finish(undefined, false);
        // A last line without a newline is a record; a trailing newline ends the file, not a blank record.
        if (rest !== undefined) emitLines(rest);
        finish(undefined, true);
      } catch (err) {
        finish(err);
      }
    });
  });
}

const NOT_PLAIN = Symbol('not plain');

/**
 * Chunks of the file in, the text of its complete lines out (undefined: no
 * complete line yet; NOT_PLAIN: a quote or carriage return). UTF-8 is cut on
 * the bytes (memchr-fast, and a line feed byte is never inside a UTF-8
 * character) and each run of whole lines decoded strictly; other encodings
 * are decoded as a stream first (in UTF-16 a 0x0A byte can be half of a character).
 */
interface LineCutter {
  push(chunk: Buffer): string | undefined | typeof NOT_PLAIN;
  end(): string | undefined | typeof NOT_PLAIN;
}

function lineCutter(encoding: string): LineCutter {
  return encoding === DEFAULT_SEED_ENCODING ? utf8LineCutter() : textLineCutter(encoding);
}

function utf8LineCutter(): LineCutter {
  // The byte order mark is removed by hand below, once; the decoder keeps any other U+FEFF.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decode = (bytes: Buffer): string => {
    try {
      return decoder.decode(bytes);
    } catch {
      throw new UndecodableText();
    }
  };
  let carry: Buffer | undefined;
  let first = true;
  return {
    push(data) {
      let chunk = data;
      if (first) {
        first = false;
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
      }
      if (chunk.indexOf(QUOTE) !== -1 || chunk.indexOf(CR) !== -1) return NOT_PLAIN;
      const lastLf = chunk.lastIndexOf(LF);
      if (lastLf === -1) {
        carry = carry ? Buffer.concat([carry, chunk]) : chunk;
        return undefined;
      }
      const head = chunk.subarray(0, lastLf);
      const text = decode(carry ? Buffer.concat([carry, head]) : head);
      carry = chunk.subarray(lastLf + 1);
      return text;
    },
    end() {
      return carry && carry.length > 0 ? decode(carry) : undefined;
    },
  };
}

function textLineCutter(encoding: string): LineCutter {
  const decoder = strictDecoder(encoding);
  const decode = (chunk?: Buffer): string => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new UndecodableText();
    }
  };
  let carry = '';
  return {
    push(chunk) {
      const text = decode(chunk);
      if (text.indexOf('"') !== -1 || text.indexOf('\r') !== -1) return NOT_PLAIN;
      const lastLf = text.lastIndexOf('\n');
      if (lastLf === -1) {
        carry += text;
        return undefined;
      }
      const lines = carry + text.slice(0, lastLf);
      carry = text.slice(lastLf + 1);
      return lines;
    },
    end() {
      const rest = carry + decode();
      if (rest.indexOf('"') !== -1 || rest.indexOf('\r') !== -1) return NOT_PLAIN;
      return rest.length > 0 ? rest : undefined;
    },
  };
}

function parseRecords(options: StreamCsvOptions, onRecord: CsvRecordHandler): Promise<void> {
  return new Promise((resolve, reject) => {
    const input = createReadStream(options.path, { highWaterMark: READ_CHUNK_BYTES });
    const text = decodingStream(options.encoding ?? DEFAULT_SEED_ENCODING);
    const parser = parse(csvOptions(options.delimiter));
    let done = false;
    const fail = (err: unknown): void => {
      if (done) return;
      done = true;
      input.destroy();
      text.destroy();
      parser.destroy();
      reject(toProjectError(err, options.file));
    };
    input.on('error', fail);
    text.on('error', fail);
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
    input.pipe(text).pipe(parser);
  });
}

/** csv-parse and file-system errors as ProjectErrors; anything else (a callback's own error) unchanged. */
function toProjectError(err: unknown, file: string): unknown {
  if (err instanceof ProjectError || err instanceof UndecodableText) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof CsvError || (typeof code === 'string' && code.startsWith('CSV_'))) {
    const lines = (err as { lines?: unknown }).lines;
    // csv-parse quotes the field read so far: keep the message short whatever the field holds.
    const message = errorMessage(err);
    return new ProjectError(`invalid CSV: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`, {
      location: { file, line: typeof lines === 'number' ? lines : undefined },
      hint: typeof code === 'string' && /QUOTE/.test(code) ? 'a field with a quote in it must itself be quoted, the quote doubled: "a ""quoted"" word"' : undefined,
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
