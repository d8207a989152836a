/**
 * The text encoding of a seed file. dbt reads seeds as UTF-8 and fails on
 * anything else; so does mini-dbt, naming the file and line, never turning
 * bad bytes into U+FFFD silently. A seed may declare another encoding
 * (`encoding: latin1`, `utf-16le`, any WHATWG label Node's TextDecoder
 * knows), which is then decoded strictly too.
 *
 * Decoding is the decoding the reader does anyway (a fatal TextDecoder, as
 * fast as Buffer#toString): there is no second pass over the bytes. Only
 * when a byte sequence fails is the file read again, to find its line.
 */
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { ProjectError } from '../errors/project-error.js';

export const DEFAULT_SEED_ENCODING = 'utf-8';

/** The `encoding` config, checked: a label TextDecoder knows, or UTF-8 when not set. */
export function seedEncoding(value: unknown, file: string): string {
  if (value === undefined || value === null) return DEFAULT_SEED_ENCODING;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ProjectError(`the seed's encoding must be an encoding name such as utf-8, latin1 or utf-16le, got ${JSON.stringify(value)}`, { location: { file } });
  }
  try {
    return new TextDecoder(value).encoding;
  } catch {
    throw new ProjectError(`unknown seed encoding '${value}'`, { location: { file }, hint: 'use a name such as utf-8, latin1, windows-1252, utf-16le or shift_jis' });
  }
}

/** A decoder that throws on bytes that are not text in `encoding` (a byte order mark is dropped). */
export function strictDecoder(encoding: string): TextDecoder {
  return new TextDecoder(encoding, { fatal: true });
}

/** Thrown by the readers on undecodable bytes; streamCsvRecords turns it into a ProjectError at the line. */
export class UndecodableText extends Error {}

/** A stream turning the file's bytes into strings, strictly. */
export function decodingStream(encoding: string): Transform {
  const decoder = strictDecoder(encoding);
  return new Transform({
    decodeStrings: true,
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      try {
        done(null, decoder.decode(chunk, { stream: true }));
      } catch {
        done(new UndecodableText());
      }
    },
    flush(done) {
      try {
        done(null, decoder.decode());
      } catch {
        done(new UndecodableText());
      }
    },
  });
}

/** The error for a file whose bytes are not text in its encoding, at the first bad line. */
export async function undecodableError(path: string, file: string, encoding: string): Promise<ProjectError> {
  const line = await firstUndecodableLine(path, encoding);
  const what = encoding === DEFAULT_SEED_ENCODING ? 'not valid UTF-8' : `not valid ${encoding}`;
  return new ProjectError(`${what}: this line has bytes that are not text in that encoding`, {
    location: { file, line },
    hint: encoding === DEFAULT_SEED_ENCODING ? "save the file as UTF-8, or declare its encoding in the seed's config (e.g. encoding: latin1)" : "fix the file, or declare the encoding it is really in (the seed's encoding config)",
  });
}

/**
 * The 1-based line of the first byte sequence that does not decode. A strict
 * and a lenient decoder read the same chunks; lines are counted on the
 * lenient text, and in the chunk where the strict one fails the first U+FFFD
 * of the lenient text marks the spot (a U+FFFD written in the file itself,
 * earlier in that same chunk, would point a little early).
 */
function firstUndecodableLine(path: string, encoding: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const strict = strictDecoder(encoding);
    const lenient = new TextDecoder(encoding);
    let lines = 1;
    let settled = false;
    const input = createReadStream(path, { highWaterMark: 1 << 16 });
    const found = (text: string): void => {
      const at = text.indexOf('\uFFFD');
      settled = true;
      input.destroy();
      resolve(lines + countNewlines(at === -1 ? text : text.slice(0, at)));
    };
    input.on('data', (chunk) => {
      if (settled) return;
      const text = lenient.decode(chunk as Buffer, { stream: true });
      try {
        strict.decode(chunk as Buffer, { stream: true });
      } catch {
        return found(text);
      }
      lines += countNewlines(text);
    });
    input.on('end', () => {
      if (settled) return;
      const text = lenient.decode();
      try {
        strict.decode();
      } catch {
        return found(text);
      }
      settled = true;
      resolve(undefined);
    });
    input.on('error', () => {
      if (!settled) resolve(undefined);
      settled = true;
    });
  });
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
