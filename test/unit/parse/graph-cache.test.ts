import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listNodes } from '../../../src/api/list-nodes.js';
import { filesRead, loadGraphWithCache, type GraphCacheOptions } from '../../../src/parse/graph-cache.js';
import { loadThroughParseCache } from '../../../src/parse/parse-cache.js';
import { isOldEnough, stampInputs } from '../../../src/parse/input-stamps.js';
import { writeProject } from '../../support/example-project.js';

const FILES = {
  'project.yml': 'name: shop\nvars:\n  kind: table\nmodels:\n  marts:\n    +materialized: table\n',
  'macros/helpers.sql': "{% macro mat() %}view{% endmacro %}",
  'models/staging/stg_a.sql': "select 1 as id from {{ ref('raw') }}",
  'models/staging/stg_b.sql': "select 2 as id from {{ ref('raw') }}",
  'models/marts/daily.sql': "{{ config(tags=['x']) }}\nselect * from {{ ref('stg_a') }}",
  'models/marts/by_macro.sql': "{{ config(materialized=mat() ~ '') }}\nselect 1 as id",
  'models/marts/by_var.sql': "{{ config(materialized=var('kind')) }}\nselect 1 as id",
  'models/marts/by_env.sql': "{{ config(alias=env_var('SHOP_ALIAS', 'plain')) }}\nselect 1 as id",
  'models/schema.yml': 'version: 2\nmodels:\n  - name: daily\n    columns:\n      - name: id\n        tests: [not_null]\n',
  'seeds/raw.csv': 'id\n1\n',
};

const MARGIN = 40; // ms: a file is trusted once it is this much older than the load that stamped it
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Past the trust margin of every file written so far. */
const settle = () => sleep(MARGIN * 2 + 20);

let dir: string;
afterEach(() => {
  delete process.env.SHOP_ALIAS;
  rmSync(dir, { recursive: true, force: true });
});

const graph = (options: GraphCacheOptions = {}) => loadGraphWithCache(dir, { trustMarginMs: MARGIN, ...options });
/** Every node as ls sees it: parents, config, materialization. */
const nodesOf = (loaded: ReturnType<typeof graph>) =>
  [...loaded.graph.nodes.values()].map((n) => ({ ...n, materialized: loaded.materialized.get(n.uniqueId) })).sort((a, b) => (a.uniqueId < b.uniqueId ? -1 : 1));
/** What a load without any cache says now. */
const truth = (options: GraphCacheOptions = {}) => nodesOf(loadGraphWithCache(dir, { ...options, partialParse: false }));
/** Load until the graph comes from the cache (a load after a change is done from the files, and writes the cache again). */
async function cachedAfterChange(options: GraphCacheOptions = {}): Promise<ReturnType<typeof graph>> {
  const first = graph(options);
  expect(first.fromCache).toBe(false);
  expect(nodesOf(first)).toEqual(truth(options));
  await settle();
  graph(options); // stamps taken after the change settled
  const second = graph(options);
  expect(second.fromCache).toBe(true);
  expect(nodesOf(second)).toEqual(nodesOf(first));
  return second;
}
/** A project served from the cache (its files settled, its target/ made). */
async function servedFromCache(files: Readonly<Record<string, string>> = FILES): Promise<void> {
  dir = writeProject(files);
  mkdirSync(join(dir, 'target'));
  await settle();
  expect(graph().fromCache).toBe(false);
  expect(graph().fromCache).toBe(true);
}
const node = (loaded: ReturnType<typeof graph>, name: string) => [...loaded.graph.nodes.values()].find((n) => n.name === name);

describe('the graph cache', () => {
  it('serves an unchanged project from the cache, with the same graph as a full load', async () => {
    dir = writeProject(FILES);
    await settle();
    const first = graph();
    expect(first.fromCache).toBe(false);
    expect(existsSync(join(dir, 'target', 'graph_cache.json'))).toBe(true);
    const second = graph();
    expect(second.fromCache).toBe(true);
    expect(nodesOf(second)).toEqual(nodesOf(first));
    expect(nodesOf(second)).toEqual(truth());
    expect(second.materialized.get('model.shop.by_macro')).toBe('view');
    expect(node(second, 'daily')?.dependsOn).toEqual(['model.shop.stg_a']);
  });

  it('trusts no file touched within the margin before the load that stamped it', async () => {
    dir = writeProject(FILES);
    graph({ trustMarginMs: 60_000 });
    expect(graph({ trustMarginMs: 60_000 }).fromCache).toBe(false);
    expect(existsSync(join(dir, 'target', 'graph_cache.json'))).toBe(false);
    expect(isOldEnough({ digest: '', newest: 1000 }, 1100, 100)).toBe(false);
    expect(isOldEnough({ digest: '', newest: 999 }, 1100, 100)).toBe(true);
  });

  it('sees a model edited with the same size, even with its modification time put back', async () => {
    dir = writeProject(FILES);
    mkdirSync(join(dir, 'target'));
    const file = join(dir, 'models/marts/daily.sql');
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    await settle();
    graph();
    expect(graph().fromCache).toBe(true);
    const before = statSync(file);
    writeFileSync(file, FILES['models/marts/daily.sql'].replace("ref('stg_a')", "ref('stg_b')"));
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    expect(statSync(file).size).toBe(before.size);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    const after = await cachedAfterChange();
    expect(node(after, 'daily')?.dependsOn).toEqual(['model.shop.stg_b']);
  });

  it('sees a model added, removed and renamed', async () => {
    await servedFromCache();
    writeFileSync(join(dir, 'models/staging/stg_c.sql'), 'select 3 as id');
    expect(node(await cachedAfterChange(), 'stg_c')).toBeDefined();
    rmSync(join(dir, 'models/staging/stg_b.sql'));
    expect(node(await cachedAfterChange(), 'stg_b')).toBeUndefined();
    renameSync(join(dir, 'models/staging/stg_c.sql'), join(dir, 'models/staging/stg_d.sql'));
    const renamed = await cachedAfterChange();
    expect(node(renamed, 'stg_c')).toBeUndefined();
    expect(node(renamed, 'stg_d')?.path).toBe('models/staging/stg_d.sql');
  });

  it('sees a changed macro, a changed project var, --vars and an environment variable a template reads', async () => {
    await servedFromCache();
    writeFileSync(join(dir, 'macros/helpers.sql'), "{% macro mat() %}table{% endmacro %}");
    expect((await cachedAfterChange()).materialized.get('model.shop.by_macro')).toBe('table');
    writeFileSync(join(dir, 'project.yml'), FILES['project.yml'].replace('kind: table', 'kind: view'));
    expect((await cachedAfterChange()).materialized.get('model.shop.by_var')).toBe('view');
    expect((await cachedAfterChange({ vars: { kind: 'ephemeral' } })).materialized.get('model.shop.by_var')).toBe('ephemeral');
    expect(graph().materialized.get('model.shop.by_var')).toBe('view');
    process.env.SHOP_ALIAS = 'fancy';
    expect(node(await cachedAfterChange(), 'by_env')?.config?.alias).toBe('fancy');
  });

  it('sees a yml file changed and a profiles.yml appearing', async () => {
    await servedFromCache();
    writeFileSync(join(dir, 'models/schema.yml'), FILES['models/schema.yml'].replace('not_null', 'unique'));
    expect([...(await cachedAfterChange()).graph.nodes.values()].some((n) => n.name.startsWith('unique_daily_id'))).toBe(true);
    writeFileSync(join(dir, 'profiles.yml'), 'shop:\n  target: dev\n  outputs:\n    dev:\n      type: sqlite\n      schema: main\n      schemas_and_paths:\n        main: other.db\n');
    writeFileSync(join(dir, 'project.yml'), `${FILES['project.yml']}profile: shop\n`);
    await cachedAfterChange();
  });

  it('keeps serving while only the project folder itself changes (target/ made again, a database file), and not after a folder the load read went away', async () => {
    await servedFromCache();
    rmSync(join(dir, 'target'), { recursive: true });
    writeFileSync(join(dir, 'warehouse.db'), '');
    expect(graph().fromCache).toBe(false); // the cache went with target/
    expect(graph().fromCache).toBe(true);
    // A folder removed while a load ran leaves no newer time behind: what the load read must still be there.
    const loaded = loadThroughParseCache(dir);
    rmSync(join(dir, 'models', 'staging'), { recursive: true });
    const present = new Set<string>();
    stampInputs([join(dir, 'models'), join(dir, 'seeds'), join(dir, 'macros')], [], present);
    expect(filesRead(loaded.project).filter((file) => !present.has(file)).map((file) => file.slice(dir.length + 1)).sort())
      .toEqual(['models/staging/stg_a.sql', 'models/staging/stg_b.sql']);
    expect(() => graph()).toThrow(/'stg_a' which was not found/); // loaded, not served
  });

  it('ignores a corrupt cache file, rewrites it, and is neither read nor written with --no-partial-parse', async () => {
    dir = writeProject(FILES);
    mkdirSync(join(dir, 'target'));
    await settle();
    const path = join(dir, 'target', 'graph_cache.json');
    graph({ partialParse: false });
    expect(existsSync(path)).toBe(false);
    graph();
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 500));
    expect(graph().fromCache).toBe(false);
    expect(graph().fromCache).toBe(true);
    expect(graph({ partialParse: false }).fromCache).toBe(false);
  });

  it('gives ls the same listing from the cache as from the files (the default margin: 2 s)', async () => {
    dir = writeProject(FILES);
    mkdirSync(join(dir, 'target'));
    const stamp = stampInputs([join(dir, 'models')], []);
    expect(stampInputs([join(dir, 'models')], []).digest).toBe(stamp.digest);
    expect(isOldEnough(stamp, Date.now() + 60_000, 0)).toBe(true);
    expect(isOldEnough(stamp, Date.now())).toBe(false); // just written: not trusted yet
    await sleep(2_100);
    const full = listNodes({ projectDir: dir, partialParse: false });
    expect(listNodes({ projectDir: dir })).toEqual(full);
    expect(loadGraphWithCache(dir).fromCache).toBe(true);
    expect(listNodes({ projectDir: dir })).toEqual(full);
    expect(full.find((n) => n.name === 'by_macro')?.materialized).toBe('view');
    expect(full.find((n) => n.name === 'daily')?.config).toEqual({ materialized: 'table', tags: ['x'] });
  });
});
