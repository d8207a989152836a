import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { run } from '../../src/api/run.js';
import { forEachEngine } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 14): installed packages load as dbt loads them.
 * Modelled on dbt-core's tests/functional/macros/test_macros.py (a package's
 * macros by namespace, dispatch and its search order, TestMisnamedMacroNamespace)
 * and tests/functional/dependencies/ (package models, seeds, vars and configs
 * with the root project's overrides winning). The packages sit in dbt_packages/
 * as `mini-dbt deps` leaves them.
 */
const PKG_A = {
  'dbt_packages/pkg_a/dbt_project.yml': `
name: pkg_a
version: '1.0'
config-version: 2
require-dbt-version: [">=1.3.0", "<3.0.0"]
vars:
  pkg_limit: 2
  greeting: from_pkg
  untouched: pkg_only
models:
  pkg_a:
    +materialized: table
    staging:
      +tags: ['pkg_staging']
`,
  'dbt_packages/pkg_a/macros/greet.sql': `
{% macro greet(x) %}{{ return(adapter.dispatch('greet', 'pkg_a')(x)) }}{% endmacro %}
{% macro default__greet(x) %}default {{ x }}{% endmacro %}
{% macro sqlite__greet(x) %}sqlite {{ x }}{% endmacro %}
{% macro postgres__greet(x) %}postgres {{ x }}{% endmacro %}
{% macro only_here() %}only in pkg_a{% endmacro %}
{% macro shared_name() %}from pkg_a{% endmacro %}
{% test at_least(model, n) %}select 1 from (select count(*) as c from {{ model }}) as counted where c < {{ n }}{% endtest %}
`,
  'dbt_packages/pkg_a/seeds/pkg_seed.csv': 'id,v\n1,a\n2,b\n3,c\n',
  'dbt_packages/pkg_a/models/staging/pkg_model.sql':
    `select id, v, '{{ var("greeting") }}' as greeting, '{{ var("untouched") }}' as untouched, '{{ only_here() }}' as own_macro from {{ ref('pkg_seed') }} where id <= {{ var('pkg_limit') }}\n`,
  'dbt_packages/pkg_a/models/staging/pkg_disabled_by_root.sql': 'select 1 as id\n',
  // A package's singular test: its own vars and its own macros unqualified, as its models have them.
  'dbt_packages/pkg_a/tests/pkg_limit_respected.sql':
    "select * from {{ ref('pkg_model') }} where id > {{ var('pkg_limit') }} or '{{ only_here() }}' <> 'only in pkg_a'\n",
  'dbt_packages/pkg_a/models/staging/schema.yml': `
version: 2
models:
  - name: pkg_model
    columns:
      - name: id
        data_tests: [unique, not_null]
`,
  'dbt_packages/pkg_b/dbt_project.yml': 'name: pkg_b\nversion: "1.0"\n',
  'dbt_packages/pkg_b/macros/shim.sql': `
{% macro sqlite__greet(x) %}shimmed {{ x }}{% endmacro %}
{% macro postgres__greet(x) %}shimmed {{ x }}{% endmacro %}
{% macro shared_name() %}from pkg_b{% endmacro %}
`,
};

const ROOT = {
  'dbt_project.yml': `
name: root_project
version: '1.0'
profile: default
vars:
  pkg_a:
    greeting: from_root
models:
  pkg_a:
    staging:
      +materialized: view
      pkg_disabled_by_root:
        +enabled: false
`,
  'models/calls.sql': `
select '{{ pkg_a.greet(1) }}' as greeted, '{{ pkg_a.shared_name() }}' as a_name, '{{ pkg_b.shared_name() }}' as b_name,
  '{{ root_project.mine() }}' as qualified_root, '{{ mine() }}' as unqualified_root
`,
  'models/reads_package.sql': "select * from {{ ref('pkg_a', 'pkg_model') }}\n",
  'models/schema.yml': `
version: 2
models:
  - name: reads_package
    data_tests:
      - pkg_a.at_least:
          n: 2
`,
  'macros/mine.sql': '{% macro mine() %}root macro{% endmacro %}\n',
};

forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('packages: macros, dispatch, models, vars and configs (dbt-core functional/macros, dependencies)', () => {
    let project: ConformanceProject;
    beforeAll(async () => {
      project = onEngine({ ...ROOT, ...PKG_A }, 'root_project');
      // In process (the API the CLI calls), writing target/ as the CLI does: a case reads its manifest.json.
      await succeedingRun(project.dir, { command: 'build', writeArtifacts: true });
    });

    it("a package's macros are called through its namespace; two packages may share a macro name", () => {
      expect(project.rows('calls')).toEqual([
        { greeted: `${engine} 1`, a_name: "from pkg_a", b_name: "from pkg_b", qualified_root: 'root macro', unqualified_root: 'root macro' },
      ]);
    });

    it("a package's model sees its own macros unqualified, its vars under the root project's, and its seed", () => {
      expect(project.rows('pkg_model', 'id')).toEqual([
        { id: 1, v: 'a', greeting: 'from_root', untouched: 'pkg_only', own_macro: 'only in pkg_a' },
        { id: 2, v: 'b', greeting: 'from_root', untouched: 'pkg_only', own_macro: 'only in pkg_a' },
      ]);
      expect(project.rows('reads_package', 'id').map((r) => r.id)).toEqual([1, 2]);
    });

    it("the root project's configs under the package's name win over the package's own (view over table; enabled: false)", () => {
      expect(project.relationType('pkg_model')).toBe('view');
      expect(project.relationType('pkg_seed')).toBe('table');
      expect(project.relationType('pkg_disabled_by_root')).toBeUndefined();
    });

    it('package nodes carry the package name: unique ids, fqn, manifest.json package_name, package: selection, the tests from its yml', () => {
      const manifest = JSON.parse(readFileSync(join(project.dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, { package_name: string; fqn: string[]; tags: string[] }> };
      expect(manifest.nodes['model.pkg_a.pkg_model']).toMatchObject({ package_name: 'pkg_a', fqn: ['pkg_a', 'staging', 'pkg_model'], tags: ['pkg_staging'] });
      expect(manifest.nodes['seed.pkg_a.pkg_seed']).toMatchObject({ package_name: 'pkg_a' });
      expect(manifest.nodes['model.root_project.calls']).toMatchObject({ package_name: 'root_project' });
      const packageTests = Object.keys(manifest.nodes).filter((id) => id.startsWith('test.pkg_a.')).sort();
      expect(packageTests.map((id) => id.split('.').slice(0, 3).join('.'))).toEqual(['test.pkg_a.not_null_pkg_model_id', 'test.pkg_a.pkg_limit_respected', 'test.pkg_a.unique_pkg_model_id']);
      const ls = project.dbt(['ls', '-s', 'package:pkg_a', '--resource-type', 'model']);
      expect(ls.stdout.trim().split('\n')).toEqual(['pkg_a.staging.pkg_model']);
    });

    it("a package's own tests run with its vars and its macros unqualified", async () => {
      const tested = await succeedingRun(project.dir, { command: 'test', select: ['pkg_model'] });
      expect(Object.fromEntries(tested.results.map((r) => [r.uniqueId, r.status]))['test.pkg_a.pkg_limit_respected']).toBe('pass');
    });

    it("a package's generic test runs by its namespaced name (pkg_a.at_least) and fails when its condition does", async () => {
      const ok = await succeedingRun(project.dir, { command: 'test', select: ['reads_package'] });
      expect(ok.results.map((r) => [r.uniqueId, r.status])).toEqual([[expect.stringMatching(/^test\.root_project\.pkg_a_at_least_reads_package_2/), 'pass']]);
      const strict = project.copy();
      strict.write('models/schema.yml', ROOT['models/schema.yml'].replace(' n: 2', ' n: 3'));
      const failing = strict.dbt(['test', '-s', 'reads_package']);
      expect(failing.code).toBe(1);
    });

    it("config() inside a generic test macro sets its fail_calc (dbt_utils' equal_rowcount), and the yml's config wins over it", async () => {
      const p = project.copy();
      p.write('dbt_packages/pkg_a/macros/gap.sql', `{% test row_gap(model, compare_model) %}
{{ config(fail_calc = 'sum(coalesce(gap, 0))') }}
select abs((select count(*) from {{ model }}) - (select count(*) from {{ compare_model }})) as gap
{% endtest %}
`);
      p.write('models/gap.yml', `version: 2
models:
  - name: calls
    data_tests:
      - pkg_a.row_gap:
          compare_model: ref('calls')
      - pkg_a.row_gap:
          name: gap_counted_as_rows
          compare_model: ref('calls')
          config:
            fail_calc: count(*)
`);
      const tested = await run({ projectDir: p.dir, command: 'test', select: ['calls'], writeArtifacts: false });
      const byName = Object.fromEntries(tested.results.map((r) => [r.uniqueId.split('.')[2], r]));
      // One row with gap 0: the macro's fail_calc sums it (0 failures); counting rows gives 1.
      expect(byName['pkg_a_row_gap_calls_ref_calls_']).toMatchObject({ status: 'pass', failures: 0 });
      expect(byName.gap_counted_as_rows).toMatchObject({ status: 'fail', failures: 1 });
    });

    it("dispatch searches the root project first: its default__ wins over the package's sqlite__", async () => {
      const p = project.copy();
      p.write('macros/override.sql', '{% macro default__greet(x) %}root default {{ x }}{% endmacro %}\n');
      await succeedingRun(p.dir, { select: ['calls'] });
      expect(p.rows('calls')[0]!.greeted).toBe('root default 1');
    });

    it("the root project's dispatch: search_order puts a shim package before the package itself", async () => {
      const p = project.copy();
      p.write('dbt_project.yml', `${ROOT['dbt_project.yml']}dispatch:\n  - macro_namespace: pkg_a\n    search_order: ['pkg_b', 'pkg_a']\n`);
      await succeedingRun(p.dir, { select: ['calls'] });
      expect(p.rows('calls')[0]!.greeted).toBe('shimmed 1');
    });

    it("dispatch in a namespace that is no package searches unqualified, and says what it looked for (TestMisnamedMacroNamespace)", () => {
      const p = project.copy();
      p.write('dbt_packages/test_utils/dbt_project.yml', "name: test_utils\nversion: '1.0'\n");
      p.write('dbt_packages/test_utils/macros/cowsay.sql', "{% macro cowsay() %}{{ return(adapter.dispatch('cowsay', 'farm_utils')()) }}{% endmacro %}\n{% macro default__cowsay() %}'moo'{% endmacro %}\n");
      p.write('models/my_model.sql', 'select {{ test_utils.cowsay() }} as cowsay\n');
      // Parsing renders the model, so the project does not load (a compilation error, exit 2, as dbt's parse).
      const run = p.dbt(['run', '-s', 'my_model']);
      expect(run.code).toBe(2);
      expect(run.stdout + run.stderr).toContain("In dispatch: No macro named 'cowsay' found within namespace: 'farm_utils'");
      expect(run.stdout + run.stderr).toContain(`Searched for: '${engine}__cowsay', 'default__cowsay'`);
    });

    it("a package's macro is not visible unqualified from the root project's models, as in dbt", () => {
      const p = project.copy();
      p.write('models/unqualified.sql', "select '{{ only_here() }}' as x\n");
      const run = p.dbt(['run', '-s', 'unqualified']);
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toContain("'only_here' is not a macro or function");
    });

    it('one package defining a macro twice is refused, naming both files', () => {
      const p = project.copy();
      p.write('dbt_packages/pkg_b/macros/again.sql', "{% macro shared_name() %}again{% endmacro %}\n");
      const parse = p.dbt(['parse']);
      expect(parse.code).toBe(2);
      expect(parse.stderr).toContain("macro 'shared_name' is defined twice: in dbt_packages/pkg_b/macros/again.sql and dbt_packages/pkg_b/macros/shim.sql");
    });

    it("a package's macro file compiles when first used; parse checks every one and names the file and line of a syntax error", async () => {
      const p = project.copy();
      p.write('dbt_packages/pkg_b/macros/broken.sql', "{% macro unused() %}\n{{ 1 + }}\n{% endmacro %}\n");
      await succeedingRun(p.dir, { select: ['calls'] });
      const parse = p.dbt(['parse']);
      expect(parse.code).toBe(2);
      expect(parse.stderr).toMatch(/dbt_packages\/pkg_b\/macros\/broken\.sql:2/);
      // A model that calls it: the error names the macro file and line, not the model.
      p.write('models/calls_broken.sql', "select '{{ pkg_b.unused() }}' as x\n");
      const run = p.dbt(['run', '-s', 'calls_broken']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^Error: dbt_packages\/pkg_b\/macros\/broken\.sql:2:\d+: template syntax error/m);
    });

    it("ref('package', 'model') to the wrong package fails that model, naming the package", () => {
      const p = project.copy();
      p.write('models/wrong_package.sql', "select * from {{ ref('pkg_b', 'pkg_model') }}\n");
      const run = p.dbt(['run', '-s', 'wrong_package']);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain("ref('pkg_b', 'pkg_model'): package 'pkg_b' has no node named 'pkg_model'");
    });

    it("a package whose require-dbt-version excludes the dbt version mini-dbt behaves as is refused (exit 2), in dbt's words", () => {
      const p = project.copy();
      p.write('dbt_packages/pkg_a/dbt_project.yml', PKG_A['dbt_packages/pkg_a/dbt_project.yml'].replace('<3.0.0', '<1.5.0'));
      const parse = p.dbt(['parse']);
      expect(parse.code).toBe(2);
      expect(parse.stderr).toContain("Version error for package pkg_a: This version of dbt is not supported with the 'pkg_a' package.");
      expect(parse.stderr).toContain("Required version of dbt for 'pkg_a': ['>=1.3.0', '<1.5.0']");
      // dbt's --no-version-check (or DBT_VERSION_CHECK=false) skips the check.
      expect(p.dbt(['parse', '--no-version-check']).code).toBe(0);
    });

    it('run-operation calls a package macro by its qualified name; an unknown one is exit 2 with the closest name', () => {
      const p = project.copy();
      p.write('dbt_packages/pkg_b/macros/make.sql', "{% macro make_table(name) %}{% do run_query('create table ' ~ name ~ ' (x int)') %}{% endmacro %}\n");
      expect(p.dbt(['run-operation', 'pkg_b.make_table', '--args', '{name: made_by_pkg_b}']).code).toBe(0);
      expect(p.relationType('made_by_pkg_b')).toBe('table');
      const unknown = p.dbt(['run-operation', 'make_tabel']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("Did you mean 'make_table'?");
    });

    it('a declared package that is not installed stops the load with dbt\'s message and "mini-dbt deps"; after deps the project builds', async () => {
      // deps installs exactly what packages.yml declares (the staged install replaces dbt_packages/ whole): a project of its own.
      const p = onEngine({}, 'with_deps');
      p.write('local_pkgs/greeter/dbt_project.yml', "name: greeter\nversion: '1.0'\n");
      p.write('local_pkgs/greeter/macros/hi.sql', '{% macro hi() %}hi from greeter{% endmacro %}\n');
      p.write('packages.yml', 'packages:\n  - local: local_pkgs/greeter\n');
      p.write('models/uses_greeter.sql', "select '{{ greeter.hi() }}' as said\n");
      const before = p.dbt(['run', '-s', 'uses_greeter']);
      expect(before.code).toBe(2);
      expect(before.stderr).toContain('mini-dbt found 1 package(s) specified in packages.yml, but only 0 package(s) installed in dbt_packages. Run "mini-dbt deps" to install package dependencies.');
      expect(p.dbt(['deps']).code).toBe(0);
      await succeedingRun(p.dir, { select: ['uses_greeter'] });
      expect(p.rows('uses_greeter')).toEqual([{ said: 'hi from greeter' }]);
    });
  });
});
