import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * `ls` on an unchanged project is answered by the bin from the last same
 * `ls`'s output (src/parse/ls-answer-cache.ts), without loading the CLI;
 * every answer must be what a load from the files says now.
 */
const FILES = {
  'project.yml': 'name: shop\nvars:\n  kind: table\n',
  'models/staging/stg_a.sql': "select 1 as id from {{ ref('raw') }}",
  'models/staging/stg_b.sql': "select 2 as id from {{ ref('raw') }}",
  'models/marts/daily.sql': "{{ config(tags=['x']) }}\nselect * from {{ ref('stg_a') }}",
  'models/marts/by_var.sql': "{{ config(materialized=var('kind')) }}\nselect 1 as id",
  'models/marts/by_env.sql': "{{ config(alias=env_var('SHOP_ALIAS', 'plain')) }}\nselect 1 as id",
  'models/schema.yml': 'version: 2\nmodels:\n  - name: daily\n    columns:\n      - name: id\n        tests: [not_null]\n',
  'seeds/raw.csv': 'id\n1\n',
};

let dir: string;
beforeAll(async () => {
  dir = writeProject(FILES);
  // A graph is kept (and so an answer) only from files at least 2 s old (src/parse/input-stamps.ts).
  await new Promise((resolve) => setTimeout(resolve, 2_100));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ls = (args: string[], env: Record<string, string> = {}) => {
  const r = runCli(['ls', '--project-dir', dir, ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout;
};
/** What a load from the files, without any cache, lists. */
const truth = (args: string[], env: Record<string, string> = {}) => ls(['--no-partial-parse', ...args], env);
const graphCache = () => join(dir, 'target', 'graph_cache.json');
const answerFile = () => join(dir, 'target', 'ls_answer.txt');

describe('ls answered by the bin', () => {
  it('answers the same ls again from its kept output, without loading the project or the CLI', () => {
    const json = ['--output', 'json'];
    const first = ls(json);
    expect(first).toBe(truth(json));
    expect(first).toContain('"unique_id":"model.shop.by_var"');
    // The kept output is the file's tail: changed there, the bin prints it as it is.
    const kept = readFileSync(answerFile());
    expect(kept.subarray(kept.length - first.length).toString('utf8')).toBe(first);
    writeFileSync(answerFile(), Buffer.concat([kept.subarray(0, kept.length - first.length), Buffer.from('answered by the bin\n')]));
    expect(ls(json)).toBe('answered by the bin\n');
    // Another command line is not that answer; nor is any once the graph cache it came from is gone.
    expect(ls(['--output', 'name'])).toBe(truth(['--output', 'name']));
    writeFileSync(answerFile(), Buffer.concat([kept.subarray(0, kept.length - first.length), Buffer.from('answered by the bin\n')]));
    expect(ls(json)).toBe('answered by the bin\n');
    rmSync(graphCache());
    expect(ls(json)).toBe(first);
    expect(ls(json)).toBe(first);
  });

  it('answers an ls given --no-version-check too (the flag sets DBT_VERSION_CHECK while the CLI runs)', () => {
    const args = ['--no-version-check', '--output', 'name'];
    const first = ls(args);
    expect(first).toBe(truth(args));
    const kept = readFileSync(answerFile());
    writeFileSync(answerFile(), Buffer.concat([kept.subarray(0, kept.length - first.length), Buffer.from('answered by the bin\n')]));
    expect(ls(args)).toBe('answered by the bin\n');
  });

  it('honours the selection, --resource-type and --vars of each command line', () => {
    for (const args of [['--select', 'stg_a+'], ['--select', 'stg_a+', '--indirect-selection', 'empty'], ['--resource-type', 'test'], ['--exclude', 'tag:x', '--output', 'path'], ['--output', 'json', '--vars', '{kind: view}']]) {
      const expected = truth(args);
      expect(ls(args)).toBe(expected); // loads, keeps the answer
      expect(ls(args)).toBe(expected); // answered
    }
    expect(ls(['--output', 'json', '--vars', '{kind: view}'])).toContain('"materialized":"view"');
    expect(ls(['--output', 'json'])).toContain('"materialized":"table"');
  });

  it('is not fooled by a variable a template reads, nor by a model changed, added or removed just now', () => {
    const json = ['--output', 'json'];
    expect(ls(json)).toBe(truth(json));
    expect(ls(json, { SHOP_ALIAS: 'fancy' })).toContain('"alias":"fancy"');
    expect(ls(json, { SHOP_ALIAS: 'fancy' })).toBe(truth(json, { SHOP_ALIAS: 'fancy' }));
    expect(ls(json)).toContain('"alias":"plain"');
    const names = ['--output', 'name'];
    ls(names);
    expect(ls(names)).not.toContain('stg_c');
    writeFileSync(join(dir, 'models/staging/stg_c.sql'), 'select 3 as id');
    expect(ls(names)).toContain('stg_c');
    expect(ls(names)).toBe(truth(names));
    rmSync(join(dir, 'models/staging/stg_c.sql'));
    expect(ls(names)).not.toContain('stg_c');
    writeFileSync(join(dir, 'models/marts/daily.sql'), FILES['models/marts/daily.sql'].replace('stg_a', 'stg_b'));
    const selected = ['--select', 'stg_b+', '--output', 'name'];
    expect(ls(selected)).toContain('daily');
    expect(ls(selected)).toBe(truth(selected));
  });

  it('keeps no answer when the graph cache is not used (--no-partial-parse)', () => {
    rmSync(answerFile(), { force: true });
    truth(['--output', 'path']);
    expect(() => statSync(answerFile())).toThrow();
  });
});
