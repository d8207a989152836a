import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGraphWithCache } from '../../../src/parse/graph-cache.js';
import { keepLsAnswer, keptLsAnswer, LS_ANSWER_FILE, type VouchedInputs } from '../../../src/parse/ls-answer-cache.js';
import { keyHash } from '../../../src/parse/key-hash.js';
import { rawStamp } from '../../../src/parse/input-stamps.js';
import { quickStat } from '../../../src/parse/stat-numbers.js';
import { writeProject } from '../../support/example-project.js';

const FILES = {
  'project.yml': 'name: shop\nvars:\n  kind: table\n',
  'models/staging/stg_a.sql': "select 1 as id from {{ ref('raw') }}",
  'models/marts/daily.sql': "select * from {{ ref('stg_a') }}",
  'models/marts/by_env.sql': "{{ config(alias=env_var('SHOP_ALIAS', 'plain')) }}\nselect 1 as id",
  'seeds/raw.csv': 'id\n1\n',
};

const MARGIN = 40; // ms (graph-cache.test.ts)
const settle = () => new Promise((r) => setTimeout(r, MARGIN * 2 + 20));
const OUTPUT = 'shop.staging.stg_a\nshop.marts.daily\n';

let dir: string;
afterEach(() => {
  delete process.env.SHOP_ALIAS;
  delete process.env.DBT_SOMETHING;
  delete process.env.UNREAD_BY_TEMPLATES;
  rmSync(dir, { recursive: true, force: true });
});

const args = (...more: string[]) => ['ls', '--project-dir', dir, ...more];
const served = (...more: string[]) => keptLsAnswer(args(...more))?.toString('utf8');

/** A project whose graph the graph cache serves, and an answer kept from that graph for `ls --project-dir <dir>`. */
async function answered(): Promise<VouchedInputs> {
  dir = writeProject(FILES);
  mkdirSync(join(dir, 'target'));
  await settle();
  expect(loadGraphWithCache(dir, { trustMarginMs: MARGIN }).vouched).toBeDefined(); // kept
  const vouched = loadGraphWithCache(dir, { trustMarginMs: MARGIN }).vouched; // served
  expect(vouched).toBeDefined();
  keepLsAnswer(vouched!, args(), OUTPUT);
  expect(served()).toBe(OUTPUT);
  return vouched!;
}

describe('the ls answer cache', () => {
  it('serves the kept output only to the same command line', async () => {
    await answered();
    expect(served('--output', 'name')).toBeUndefined();
    expect(keptLsAnswer(['ls', '--project-dir', `${dir}/`, '--output', 'name'])).toBeUndefined();
    expect(keptLsAnswer(['ls', `--project-dir=${dir}`])).toBeUndefined(); // found there, but another command line
    expect(keptLsAnswer(['list', '--project-dir', dir])).toBeUndefined();
  });

  it('is not served once a model changed, even at the same size with its times put back', async () => {
    await answered();
    const file = join(dir, 'models/marts/daily.sql');
    const before = statSync(file);
    writeFileSync(file, FILES['models/marts/daily.sql'].replace('stg_a', 'stg_b'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    expect(served()).toBeUndefined();
  });

  it('is not served once a file came or went, or a project file appeared', async () => {
    await answered();
    writeFileSync(join(dir, 'models/staging/stg_b.sql'), 'select 2 as id');
    expect(served()).toBeUndefined();
    rmSync(join(dir, 'models/staging/stg_b.sql'));
    writeFileSync(join(dir, 'profiles.yml'), 'shop: {}\n');
    expect(served()).toBeUndefined();
  });

  it('is not served under another DBT_ variable or another value of a variable a template reads; other variables do not matter', async () => {
    await answered();
    process.env.UNREAD_BY_TEMPLATES = 'x';
    expect(served()).toBe(OUTPUT);
    process.env.SHOP_ALIAS = 'fancy';
    expect(served()).toBeUndefined();
    delete process.env.SHOP_ALIAS;
    expect(served()).toBe(OUTPUT);
    process.env.DBT_SOMETHING = '1';
    expect(served()).toBeUndefined();
  });

  it('goes with the graph cache it was made from: not served once graph_cache.json is removed or written again', async () => {
    const vouched = await answered();
    const graphCache = join(dir, 'target', 'graph_cache.json');
    const text = readFileSync(graphCache);
    rmSync(graphCache);
    expect(served()).toBeUndefined();
    writeFileSync(graphCache, text);
    expect(served()).toBeUndefined();
    keepLsAnswer(vouched, args(), OUTPUT);
    expect(served()).toBe(OUTPUT);
  });

  it('ignores a cut or foreign answer file', async () => {
    await answered();
    const path = join(dir, 'target', LS_ANSWER_FILE);
    const bytes = readFileSync(path);
    const header = bytes.subarray(0, bytes.indexOf(10)).toString('utf8');
    const { stampText, stampNumbers } = JSON.parse(header) as { stampText: number; stampNumbers: number };
    writeFileSync(path, bytes.subarray(0, header.length + 1 + stampText + stampNumbers - 8));
    expect(served()).toBeUndefined();
    writeFileSync(path, bytes.subarray(0, 40));
    expect(served()).toBeUndefined();
    writeFileSync(path, '{"format":1}\nshop.marts.daily\n');
    expect(served()).toBeUndefined();
    writeFileSync(path, bytes);
    expect(served()).toBe(OUTPUT);
  });

  it('stamps the same from inside each folder and through the fs binding (as the bin does), and leaves the working directory where it was', async () => {
    const vouched = await answered();
    const cwd = process.cwd();
    expect(keptLsAnswer(args(), { fromInside: true, quick: true })?.toString('utf8')).toBe(OUTPUT);
    expect(process.cwd()).toBe(cwd);
    symlinkSync(join(dir, 'models/staging'), join(dir, 'models/linked'));
    mkdirSync(join(dir, 'models/more'));
    writeFileSync(join(dir, 'models/more/m.sql'), 'select 1 as id');
    const outside = rawStamp(vouched.dirs, vouched.files);
    const inside = rawStamp(vouched.dirs, vouched.files, undefined, { fromInside: true });
    const quick = rawStamp(vouched.dirs, vouched.files, undefined, { fromInside: true, stat: quickStat(dir) });
    expect(process.cwd()).toBe(cwd);
    expect(inside.text).toBe(outside.text);
    expect([...inside.numbers]).toEqual([...outside.numbers]);
    expect(quick.text).toBe(outside.text);
    expect([...quick.numbers]).toEqual([...outside.numbers]);
    expect(outside.text).toContain('linked');
    expect(keptLsAnswer(args(), { fromInside: true, quick: true })).toBeUndefined(); // folders added since
    expect(process.cwd()).toBe(cwd);
    // Relative paths are stamped from where they are relative to, not from inside the folders.
    const dirs = vouched.dirs.map((path) => relative(cwd, path));
    const asGiven = rawStamp(dirs, [], undefined, { fromInside: true });
    expect(asGiven.text).toContain(`D ${dirs[0]}\nlinked\nmarts\nmore\nstaging`);
    expect([...asGiven.numbers]).toEqual([...rawStamp(dirs, []).numbers]);
    expect(asGiven.numbers.length).toBeGreaterThan(20);
    expect(process.cwd()).toBe(cwd);
  });

  it('gets no vouched stamp from a load it did not keep or with --no-partial-parse', async () => {
    dir = writeProject(FILES);
    expect(loadGraphWithCache(dir, { trustMarginMs: 60_000 }).vouched).toBeUndefined(); // files too new to trust
    expect(loadGraphWithCache(dir, { trustMarginMs: 60_000 }).vouched).toBeUndefined();
    await settle();
    expect(loadGraphWithCache(dir, { trustMarginMs: MARGIN, partialParse: false }).vouched).toBeUndefined();
  });
});

describe('keyHash', () => {
  it('is 128 bits of hex, the same for the same text and different for near texts', () => {
    expect(keyHash('ls --output name')).toMatch(/^[0-9a-f]{32}$/);
    expect(keyHash('ls --output name')).toBe(keyHash('ls --output name'));
    const texts = ['', 'a', 'b', 'ab', 'ba', 'aa', 'ls', 'ls ', '{"a":1}', '{"a":2}', '{"b":1}', 'é', 'e\u0301'];
    expect(new Set(texts.map(keyHash)).size).toBe(texts.length);
    const many = Array.from({ length: 20_000 }, (_, i) => `{"args":["ls","--select","m${i}"]}`);
    expect(new Set(many.map(keyHash)).size).toBe(many.length);
  });
});
