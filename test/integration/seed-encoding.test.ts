/**
 * Seed files that are wrong say where: bytes that are not text in the
 * seed's encoding (never a silent U+FFFD), a declared encoding decoded as
 * declared, a stray quote at file:line, a whitespace-only file, a delimiter
 * that cannot be one. Each failure leaves the loaded table exactly as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleProject } from '../support/example-project.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { warehouseSnapshot } from '../support/warehouse-snapshot.js';

const HEADER = 'load_date,order_id,order_date,status,amount\n';
const ROW = '2026-09-01,1,2026-09-01,delivered,1.5\n';

let base: string;
beforeAll(() => {
  base = exampleProject();
  expect(runCli(['seed', '--project-dir', base]).code).toBe(0);
});

function seeded(csv: Buffer | string, yml?: (text: string) => string): string {
  const dir = exampleProject();
  writeFileSync(join(dir, 'warehouse.db'), readFileSync(join(base, 'warehouse.db')));
  writeFileSync(join(dir, 'seeds', 'raw_orders.csv'), csv);
  if (yml) {
    const path = join(dir, 'seeds', 'raw_orders.yml');
    writeFileSync(path, yml(readFileSync(path, 'utf8')));
  }
  return dir;
}

const withConfig = (line: string) => (text: string) => text.replace('    config:\n', `    config:\n      ${line}\n`);

/** Seed, expecting a failure that changes nothing. */
function fails(dir: string): CliResult {
  const db = join(dir, 'warehouse.db');
  const before = warehouseSnapshot(db);
  const r = runCli(['seed', '--project-dir', dir]);
  expect(r.stderr).not.toMatch(/Internal error|\n\s+at .*\.js:\d+/);
  expect(r.code).toBe(1); // the seed node fails (dbt reads a seed's CSV when the seed runs): exit 1
  expect(warehouseSnapshot(db)).toEqual(before);
  return r;
}

function statuses(dir: string): string[] {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return db.prepare('select status from raw_orders order by order_id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe('seed encodings', () => {
  it('a Latin-1 byte in a UTF-8 seed is an error at its line, in the plain and the quoted reader alike', () => {
    const latin1 = Buffer.concat([Buffer.from(HEADER + ROW + ROW), Buffer.from('2026-09-02,2,2026-09-02,d'), Buffer.from([0xe9]), Buffer.from('livr,2\n')]);
    const plain = fails(seeded(latin1));
    expect(plain.stdout).toContain('seeds/raw_orders.csv:4: not valid UTF-8');
    const quoted = Buffer.concat([Buffer.from(`${HEADER}2026-09-01,1,2026-09-01,"deli,vered",1\n${ROW}`), Buffer.from([0xff, 0x0a])]);
    expect(fails(seeded(quoted)).stdout).toContain('seeds/raw_orders.csv:4: not valid UTF-8');
    // A character cut short at the very end of the file.
    expect(fails(seeded(Buffer.concat([Buffer.from(HEADER + ROW), Buffer.from([0xc3])]))).stdout).toContain('seeds/raw_orders.csv:3: not valid UTF-8');
  });

  it('a bad byte deep in a big file (past the first read chunk) names its line', () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => `2026-09-01,${i},2026-09-01,delivered,1\n`).join('');
    const dir = seeded(Buffer.concat([Buffer.from(HEADER + rows), Buffer.from([0x80]), Buffer.from(',x,2026-09-01,delivered,1\n')]));
    expect(fails(dir).stdout).toContain(`seeds/raw_orders.csv:${60_002}: not valid UTF-8`);
  });

  it('a declared encoding decodes the file: latin1, utf-16le (with BOM), folder config; UTF-8 multibyte text is kept', () => {
    const latin1 = seeded(Buffer.concat([Buffer.from(HEADER), Buffer.from('2026-09-01,1,2026-09-01,d'), Buffer.from([0xe9]), Buffer.from('livr\u00e9,1\n', 'latin1')]), withConfig('encoding: latin1'));
    expect(runCli(['seed', '--project-dir', latin1]).code).toBe(0);
    expect(statuses(latin1)).toEqual(['délivré']);

    const text = `${HEADER}2026-09-01,1,2026-09-01,"livré, 配達",1\n2026-09-01,2,2026-09-01,\u010a,2\n`;
    const utf16 = seeded(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), withConfig('encoding: utf-16le'));
    expect(runCli(['seed', '--project-dir', utf16]).code).toBe(0);
    expect(statuses(utf16)).toEqual(['livré, 配達', '\u010a']);

    const folder = seeded(Buffer.concat([Buffer.from(HEADER), Buffer.from('2026-09-01,1,2026-09-01,'), Buffer.from([0xe0]), Buffer.from(',1\n')]));
    writeFileSync(join(folder, 'project.yml'), `${readFileSync(join(folder, 'project.yml'), 'utf8')}\nseeds:\n  encoding: latin1\n`);
    expect(runCli(['seed', '--project-dir', folder]).code).toBe(0);
    expect(statuses(folder)).toEqual(['à']);

    const utf8 = seeded(`${HEADER}2026-09-01,1,2026-09-01,配達済み,1\n`);
    expect(runCli(['seed', '--project-dir', utf8]).code).toBe(0);
    expect(statuses(utf8)).toEqual(['配達済み']);
  });

  it('bytes invalid in the declared encoding, and an unknown encoding, are errors', () => {
    // An unpaired surrogate in UTF-16.
    const bad = Buffer.concat([Buffer.from(HEADER + ROW, 'utf16le'), Buffer.from([0x00, 0xd8, 0x41, 0x00, 0x0a, 0x00])]);
    expect(fails(seeded(bad, withConfig('encoding: utf-16le'))).stdout).toContain('seeds/raw_orders.csv:3: not valid utf-16le');
    const unknown = fails(seeded(HEADER + ROW, withConfig('encoding: latin-99')));
    expect(unknown.stdout).toContain("seeds/raw_orders.csv: unknown seed encoding 'latin-99'");
  });
});

describe('seed file shapes and delimiters', () => {
  it('a stray quote names file:line and says how to quote', () => {
    const r = fails(seeded(`${HEADER}${ROW}2026-09-01,1,2026-09-01,d"elivered,1\n`));
    expect(r.stdout).toContain('seeds/raw_orders.csv:3: invalid CSV: Invalid Opening Quote');
    expect(r.stdout).toContain('the quote doubled');
  });

  it('a whitespace-only file is an empty seed; blank lines before the header are refused at line 1', () => {
    expect(fails(seeded('  \n\n \t \n')).stdout).toContain('seeds/raw_orders.csv: seed file is empty: expected a header row with the column names');
    expect(fails(seeded('')).stdout).toContain('seeds/raw_orders.csv: seed file is empty');
    expect(fails(seeded(`\n  \n${HEADER}${ROW}`)).stdout).toContain('seeds/raw_orders.csv:1: the first line is blank: expected a header row');
  });

  it.each([
    ["delimiter: ''", 'invalid seed delimiter "": it is empty'],
    ["delimiter: ';;'", 'invalid seed delimiter ";;": it must be exactly one character'],
    ["delimiter: '\"'", 'invalid seed delimiter "\\"": the double quote is the CSV quote character'],
    ['delimiter: "\\n"', 'invalid seed delimiter "\\n": a line break ends a row'],
    ['delimiter: 5', 'invalid seed delimiter 5: it must be a string of one character'],
  ])('%s is refused', (config, message) => {
    expect(fails(seeded(HEADER + ROW, withConfig(config))).stdout).toContain(`seeds/raw_orders.csv: ${message}`);
  });

  it('a one-character delimiter other than a comma works (tab, semicolon)', () => {
    const dir = seeded(`${HEADER.replaceAll(',', ';')}${ROW.replaceAll(',', ';')}`, withConfig("delimiter: ';'"));
    expect(runCli(['seed', '--project-dir', dir]).code).toBe(0);
    expect(statuses(dir)).toEqual(['delivered']);
  });
});
