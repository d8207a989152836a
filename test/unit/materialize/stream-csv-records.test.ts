import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotPlainCsvError, streamCsvRecords, type CsvReadMode } from '../../../src/materialize/stream-csv-records.js';

const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileNo = 0;
async function records(content: string | Buffer, mode: CsvReadMode, delimiter = ','): Promise<{ records: string[][]; plain: boolean }> {
  const path = join(dir, `f${fileNo++}.csv`);
  writeFileSync(path, content);
  const out: string[][] = [];
  const { plain } = await streamCsvRecords({ path, file: 'f.csv', delimiter, mode, onRestart: () => (out.length = 0) }, (r) => out.push(r));
  return { records: out, plain };
}

describe('the plain splitter returns what csv-parse returns', () => {
  // Quote-free, CR-free text: fields, delimiters, blank lines, 'null', spaces, multi-byte characters.
  const plainText = fc.array(fc.constantFrom('a', 'bc', '1', '-2.5', ',', ';', '\n', '\n', '', ' ', 'null', 'é', '日本', '\t'), { maxLength: 60 }).map((parts) => parts.join(''));

  it('on any quote-free, CR-free input, with or without a BOM, for several delimiters', async () => {
    await fc.assert(
      fc.asyncProperty(plainText, fc.boolean(), fc.constantFrom(',', ';', '\t', '::'), async (text, bom, delimiter) => {
        const content = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : text;
        const split = await records(content, 'plain', delimiter);
        const parsed = await records(content, 'parse', delimiter);
        expect(split.plain).toBe(true);
        expect(split.records).toEqual(parsed.records);
      }),
      { numRuns: 200 },
    );
  });

  it('across read chunks, with multi-byte characters on the chunk boundaries', async () => {
    const lines = ['id,name,amount'];
    for (let i = 0; i < 150_000; i++) lines.push(`${i},${i % 7 === 0 ? '' : 'nämé日本'.slice(0, i % 6)},${i}.5`);
    const content = `${lines.join('\n')}\n`;
    expect(Buffer.byteLength(content)).toBeGreaterThan(2 * (1 << 20));
    const split = await records(content, 'plain');
    expect(split.records).toHaveLength(150_001);
    expect(split.records).toEqual((await records(content, 'parse')).records);
  });
});

describe('files that are not plain', () => {
  it('auto mode parses a file with quotes or CRLF, starting over when they show up late', async () => {
    const late = ['a,b', ...Array.from({ length: 100_000 }, (_, i) => `${i},x`), '1,"quoted, with comma"'].join('\n');
    const result = await records(late, 'auto');
    expect(result.plain).toBe(false);
    expect(result.records).toHaveLength(100_002);
    expect(result.records.at(-1)).toEqual(['1', 'quoted, with comma']);
    expect((await records('a,b\r\n1,2\r\n', 'auto')).records).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('plain mode refuses them', async () => {
    await expect(records('a\n"x"\n', 'plain')).rejects.toBeInstanceOf(NotPlainCsvError);
    await expect(records('a\r\nx\r\n', 'plain')).rejects.toBeInstanceOf(NotPlainCsvError);
  });
});

describe('progress', () => {
  it('reports the bytes read so far, ending at the file size, in both readers', async () => {
    const content = `id,name\n${Array.from({ length: 50_000 }, (_, i) => `${i},name ${i}`).join('\n')}\n`;
    for (const [mode, text] of [['plain', content], ['parse', content.replace('name 7', '"name, 7"')]] as const) {
      const path = join(dir, `progress-${mode}.csv`);
      writeFileSync(path, text);
      const seen: number[] = [];
      await streamCsvRecords({ path, file: 'p.csv', delimiter: ',', mode, onBytes: (b) => seen.push(b) }, () => undefined);
      expect(seen.length, mode).toBeGreaterThan(0);
      expect(seen.every((b, i) => i === 0 || b > seen[i - 1]!), mode).toBe(true);
      expect(seen.at(-1), mode).toBe(Buffer.byteLength(text));
    }
  });
});
