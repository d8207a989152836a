import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';
import { tableRows } from '../support/warehouse-rows.js';

/**
 * dbt's model versions (dbt 1.5+; dbt-core tests/functional/graph_selection/test_version_selection.py,
 * tests/functional/ref_override and the versions docs): one node per version, ref() to the latest or
 * a named version, version: selection, per-version columns, tests and unit tests, manifest fields.
 */
describe('model versions', () => {
  const SCHEMA = `version: 2
models:
  - name: dim_orders
    description: every order
    latest_version: 2
    config:
      materialized: view
      meta: {owner: sales, tier: 1}
    columns:
      - name: id
        data_tests: [unique, not_null]
      - name: ver
    versions:
      - v: 1
        description: the first shape
        config:
          materialized: table
          meta: {tier: 2}
        columns: [{include: all, exclude: [ver]}]
      - v: 2
      - v: 3
        deprecation_date: '2030-01-01'
        columns:
          - include: all
          - name: note
            description: only in v3
            constraints: [{type: not_null}]
`;
  const project = (files: Record<string, string> = {}) => writeProject({
    'dbt_project.yml': "name: shop\nversion: '1.0'\n",
    'seeds/orders.csv': 'id,amount\n1,10\n2,20\n3,30\n',
    'models/dim_orders_v1.sql': "select id from {{ ref('orders') }}\n",
    'models/dim_orders_v2.sql': "select id, 2 as ver, amount from {{ ref('orders') }}\n",
    'models/dim_orders_v3.sql': "select id, 3 as ver from {{ ref('orders') }} where id > 1\n",
    'models/latest_reader.sql': "select * from {{ ref('dim_orders') }}\n",
    'models/pinned_reader.sql': "select * from {{ ref('dim_orders', v=1) }}\n",
    'models/pkg_reader.sql': "select * from {{ ref('shop', 'dim_orders', version=3) }}\n",
    'models/schema.yml': SCHEMA,
    ...files,
  });

  it('builds each version as <name>_v<v>; ref() reads the latest version, ref(.., v=/version=) the one named', () => {
    const dir = project();
    const build = runCli(['build', '--project-dir', dir]);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout).toContain('OK created sql table model main.dim_orders_v1');
    expect(build.stdout).toContain('OK created sql view model main.dim_orders_v2');
    // latest_version: 2, so v3 is a prerelease and ref('dim_orders') is v2.
    expect(tableRows(dir, 'latest_reader')).toEqual([{ id: 1, ver: 2, amount: 10 }, { id: 2, ver: 2, amount: 20 }, { id: 3, ver: 2, amount: 30 }]);
    expect(tableRows(dir, 'pinned_reader')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(tableRows(dir, 'pkg_reader')).toEqual([{ id: 2, ver: 3 }, { id: 3, ver: 3 }]);
    // The version's config is merged over the model's: v1 is a table, the others views.
    const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
    const kinds = db.prepare("select name, type from sqlite_master where name like 'dim_orders%' order by name").all();
    db.close();
    expect(kinds).toEqual([{ name: 'dim_orders_v1', type: 'table' }, { name: 'dim_orders_v2', type: 'view' }, { name: 'dim_orders_v3', type: 'view' }]);
    // Data tests attach to every version, named after <name>_v<v> as dbt names them.
    for (const v of [1, 2, 3]) expect(build.stdout).toMatch(new RegExp(`PASS unique_dim_orders_v${v}_id `));
    // show previews the latest version for the model's name, as ref() reads it.
    const show = runCli(['show', '-s', 'dim_orders', '--project-dir', dir]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("Previewing node 'dim_orders.v2'");
  });

  it('manifest.json: version nodes with version, latest_version, deprecation_date, fqn, alias, inherited columns and versioned refs', () => {
    const dir = project({ 'models/exposures.yml': "exposures:\n  - name: board\n    type: dashboard\n    owner: {name: Sales}\n    depends_on: [\"ref('dim_orders')\", \"ref('dim_orders', v=1)\"]\n" });
    expect(runCli(['parse', '--project-dir', dir]).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8'));
    expect(Object.keys(manifest.nodes).filter((k: string) => k.startsWith('model.shop.dim_orders')).sort()).toEqual(['model.shop.dim_orders.v1', 'model.shop.dim_orders.v2', 'model.shop.dim_orders.v3']);
    const v1 = manifest.nodes['model.shop.dim_orders.v1'];
    expect(v1).toMatchObject({ name: 'dim_orders', version: 1, latest_version: 2, deprecation_date: null, fqn: ['shop', 'dim_orders', 'v1'], alias: 'dim_orders_v1', description: 'the first shape' });
    expect(Object.keys(v1.columns)).toEqual(['id']);
    expect(v1.config.meta).toEqual({ owner: 'sales', tier: 2 });
    const v3 = manifest.nodes['model.shop.dim_orders.v3'];
    expect(v3).toMatchObject({ version: 3, latest_version: 2, deprecation_date: '2030-01-01', description: 'every order' });
    expect(Object.keys(v3.columns)).toEqual(['id', 'ver', 'note']);
    expect(v3.columns.note).toMatchObject({ description: 'only in v3', constraints: [{ type: 'not_null' }] });
    expect(manifest.nodes['model.shop.latest_reader'].depends_on.nodes).toEqual(['model.shop.dim_orders.v2']);
    expect(manifest.nodes['model.shop.pinned_reader'].refs).toEqual([{ name: 'dim_orders', package: null, version: 1 }]);
    expect(manifest.nodes['model.shop.pinned_reader'].depends_on.nodes).toEqual(['model.shop.dim_orders.v1']);
    expect(manifest.nodes['model.shop.latest_reader']).toMatchObject({ version: null, latest_version: null });
    // An exposure's ref('dim_orders') is the latest version too.
    expect(manifest.exposures['exposure.shop.board'].depends_on.nodes.sort()).toEqual(['model.shop.dim_orders.v1', 'model.shop.dim_orders.v2']);
  });

  it("selects by the model's name (every version), name.v<v> or name_v<v> (one), and by version: latest, prerelease, old, none", () => {
    const dir = project();
    const ls = (select: string) => runCli(['ls', '--resource-type', 'model', '-s', select, '--project-dir', dir]).stdout.trim().split('\n').sort();
    expect(ls('dim_orders')).toEqual(['shop.dim_orders.v1', 'shop.dim_orders.v2', 'shop.dim_orders.v3']);
    expect(ls('dim_orders.v1')).toEqual(['shop.dim_orders.v1']);
    expect(ls('dim_orders_v3')).toEqual(['shop.dim_orders.v3']);
    expect(ls('version:latest')).toEqual(['shop.dim_orders.v2']);
    expect(ls('version:prerelease')).toEqual(['shop.dim_orders.v3']);
    expect(ls('version:old')).toEqual(['shop.dim_orders.v1']);
    expect(ls('version:none')).toEqual(['shop.latest_reader', 'shop.pinned_reader', 'shop.pkg_reader']);
    expect(ls('version:latest+')).toEqual(['shop.dim_orders.v2', 'shop.latest_reader']);
    const bad = runCli(['ls', '-s', 'version:newest', '--project-dir', dir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid version type selector newest: expected one of: "latest", "prerelease", "old", or "none"');
    // ls --output name prints dbt's search name; json its name, alias and version.
    expect(runCli(['ls', '-s', 'dim_orders.v1', '--resource-type', 'model', '--output', 'name', '--project-dir', dir]).stdout.trim()).toBe('dim_orders.v1');
    const json = runCli(['ls', '-s', 'dim_orders.v1', '--resource-type', 'model', '--output', 'json', '--output-keys', 'name alias version latest_version unique_id', '--project-dir', dir]);
    expect(JSON.parse(json.stdout)).toEqual({ name: 'dim_orders', unique_id: 'model.shop.dim_orders.v1', alias: 'dim_orders_v1', version: 1, latest_version: 2 });
  });

  it("dbt's version selection suite: numbers, decimals and text ordered as dbt orders them (float when both read as numbers, else text)", () => {
    const files: Record<string, string> = {
      'dbt_project.yml': "name: test\nversion: '1.0'\n",
      'models/schema.yml': 'models:\n  - name: versioned\n    latest_version: 2\n    versions:\n' + ['2', '1', '3', '4.5', '"5.0"', '21', '"test"'].map((v) => `      - v: ${v}\n`).join(''),
    };
    for (const v of ['1', '2', '3', '4.5', '5.0', '21', 'test']) files[`models/versioned_v${v}.sql`] = 'select 1 as id\n';
    // The Jinja context's model.name is the model's, model.version the version (dbt's).
    files['models/versioned_v4.5.sql'] = "select '{{ model.name }}' as name, '{{ model.version }}' as version, '{{ model.latest_version }}' as latest\n";
    const dir = writeProject(files);
    const ls = (select: string) => runCli(['ls', '-s', select, '--project-dir', dir]).stdout.trim().split('\n').sort();
    expect(ls('version:latest')).toEqual(['test.versioned.v2']);
    expect(ls('version:old')).toEqual(['test.versioned.v1']);
    expect(ls('version:prerelease')).toEqual(['test.versioned.v21', 'test.versioned.v3', 'test.versioned.v4.5', 'test.versioned.v5.0', 'test.versioned.vtest']);
    expect(ls('version:latest version:old')).toEqual(['test.versioned.v1', 'test.versioned.v2']);
    const run = runCli(['run', '-s', 'versioned.v4.5', '--project-dir', dir]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('OK created sql view model main.versioned_v4_5');
    expect(tableRows(dir, 'versioned_v4_5')).toEqual([{ name: 'versioned', version: '4.5', latest: '2' }]);
  });

  it('the latest version may live in the plain <name>.sql (dbt: version 0 too), another in its defined_in file', () => {
    const dir = writeProject({
      'dbt_project.yml': "name: shop\nversion: '1.0'\n",
      'models/my_model.sql': 'select 1 as id\n',
      'models/legacy_shape.sql': 'select -1 as id\n',
      'models/another.sql': "select * from {{ ref('my_model') }} union all select * from {{ ref('my_model', v='old') }}\n",
      'models/schema.yml': "models:\n  - name: my_model\n    versions:\n      - v: 0\n      - v: old\n        defined_in: legacy_shape\n    latest_version: 0\n",
    });
    const run = runCli(['run', '--project-dir', dir]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('main.my_model_v0');
    expect(run.stdout).toContain('main.my_model_vold');
    expect(tableRows(dir, 'another').map((r) => r.id as number).sort((a, b) => a - b)).toEqual([-1, 1]);
  });

  it('unit tests run on every version, or those versions: includes or does not exclude (unit_test.<project>.<model>.<name>_v<v>)', () => {
    const dir = project({
      'models/unit.yml': `unit_tests:
  - name: keeps_ids
    model: dim_orders
    given:
      - input: ref('orders')
        rows: [{id: 5, amount: 3}]
    expect:
      rows: [{id: 5}]
  - name: v2_only
    model: dim_orders
    versions: {include: [2]}
    given:
      - input: ref('orders')
        rows: [{id: 5, amount: 3}]
    expect:
      rows: [{id: 5, ver: 2, amount: 3}]
  - name: pinned
    model: pinned_reader
    given:
      - input: ref('dim_orders', v=1)
        rows: [{id: 7}]
    expect:
      rows: [{id: 7}]
`,
    });
    const ls = runCli(['ls', '--resource-type', 'unit_test', '--project-dir', dir]);
    // A unit test reads its inputs' column types from the warehouse: build them empty first.
    expect(runCli(['seed', '--project-dir', dir]).code).toBe(0);
    expect(runCli(['run', '--empty', '--project-dir', dir]).code).toBe(0);
    expect(ls.stdout.trim().split('\n').sort()).toEqual(['unit_test:shop.keeps_ids_v1', 'unit_test:shop.keeps_ids_v2', 'unit_test:shop.keeps_ids_v3', 'unit_test:shop.pinned', 'unit_test:shop.v2_only_v2']);
    const test = runCli(['test', '-s', 'test_type:unit', '--project-dir', dir]);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/Done\. PASS=5 WARN=0 ERROR=0 SKIP=0 TOTAL=5/);
    const none = project({ 'models/unit.yml': 'unit_tests:\n  - name: t\n    model: dim_orders\n    versions: {include: [9]}\n    given: []\n    expect: {rows: []}\n' });
    const r = runCli(['ls', '--project-dir', none]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("models/unit.yml:2: Unit test 't' referenced a version of 'dim_orders' which was not found.");
  });

  it('bad versions are one-line errors at their file and line (E205-E209)', () => {
    const fails = (files: Record<string, string>) => {
      const r = runCli(['ls', '--project-dir', project(files)]);
      expect(r.code).toBe(2);
      return r.stderr.trim().split('\n')[0];
    };
    // E205: v is no number or string
    expect(fails({ 'models/schema.yml': SCHEMA.replace('      - v: 2\n', '      - v: [2]\n') })).toBe("Error: models/schema.yml:20: model 'dim_orders': version entry 2 needs a 'v' that is a number or a string, got a list");
    // E206: a version given twice
    expect(fails({ 'models/schema.yml': SCHEMA.replace('      - v: 3\n', '      - v: 2\n') })).toBe("Error: models/schema.yml:21: Found duplicate version: '2' in versions list of model 'dim_orders'");
    // E207: latest_version that is none of them
    expect(fails({ 'models/schema.yml': SCHEMA.replace('latest_version: 2', 'latest_version: 4') })).toBe("Error: models/schema.yml:5: latest_version: 4 is not one of model 'dim_orders' versions: [1, 2, 3]");
    // E208: a version without its file
    expect(fails({ 'models/schema.yml': SCHEMA.replace('      - v: 2\n', '      - v: 2\n        defined_in: dim_orders_two\n') })).toBe("Error: models/schema.yml:20: model 'dim_orders' version 2 has no file: no model file is named dim_orders_two.sql");
    // A versioned model described in two files, as any model described twice.
    expect(fails({ 'models/again.yml': 'models:\n  - name: dim_orders\n    versions:\n      - v: 1\n' })).toMatch(/^Error: models\/(again|schema)\.yml:\d+: 'dim_orders' is described twice \(also in models\/(again|schema)\.yml:\d+\)$/);
    // E209: ref() to a version that does not exist
    expect(fails({ 'models/pinned_reader.sql': "select *\nfrom {{ ref('dim_orders', v=7) }}\n" })).toBe("Error: models/pinned_reader.sql:2: model 'pinned_reader' depends on model 'dim_orders' version 7, which does not exist (versions: 1, 2, 3)");
  });
  it("mini-dbt's own commands (history, stale) read a versioned model's name as its latest version, and name.v1 as that one", () => {
    const dir = project();
    expect(runCli(['build', '--project-dir', dir]).code).toBe(0);
    const latest = runCli(['history', 'dim_orders', '--project-dir', dir]);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toMatch(/^dim_orders\.v2 was last written/);
    const pinned = runCli(['stale', 'dim_orders.v1', '--project-dir', dir, '--json']);
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(JSON.parse(pinned.stdout).model).toBe('dim_orders.v1');
  });
});
