import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { forEachEngine } from '../support/engine-under-test.js';
import { runCli } from '../support/run-cli.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * dbt 1.8 unit tests (issue 15), modelled on dbt-core's tests/functional/unit_testing/
 * (test_unit_testing.py, test_csv_fixtures.py, test_sql_format.py, test_ut_overrides.py,
 * test_ut_sources.py, test_ut_this_relation.py) and dbt-tests-adapter's unit_testing/:
 * the model's SQL runs on fixture rows, never on the warehouse's tables, and its rows are
 * compared with the expected ones in any order.
 */

const MY_MODEL = `SELECT
a+b as c,
string_a || string_b as string_c,
not_testing, date_a,
'{{ var('my_test') }}' as var_call,
'{{ env_var('MY_TEST', 'default') }}' as env_var_call,
'{{ invocation_id }}' as invocation_id
FROM {{ ref('my_model_a')}} my_model_a
JOIN {{ ref('my_model_b' )}} my_model_b
ON my_model_a.id = my_model_b.id
`;
const MODEL_A = "SELECT\n1 as a,\n1 as id,\n2 as not_testing,\n'a' as string_a,\n'2020-01-02' as date_a\n";
const MODEL_B = "SELECT\n2 as b,\n1 as id,\n2 as c,\n'b' as string_b\n";
const TESTS = `unit_tests:
  - name: test_my_model
    model: my_model
    given:
      - input: ref('my_model_a')
        rows:
          - {id: 1, a: 1}
      - input: ref('my_model_b')
        rows:
          - {id: 1, b: 2}
          - {id: 2, b: 2}
    expect:
      rows:
        - {c: 2}
  - name: test_my_model_empty
    model: my_model
    given:
      - input: ref('my_model_a')
        rows: []
      - input: ref('my_model_b')
        rows:
          - {id: 1, b: 2}
          - {id: 2, b: 2}
    expect:
      rows: []
  - name: test_my_model_overrides
    model: my_model
    given:
      - input: ref('my_model_a')
        rows:
          - {id: 1, a: 1}
      - input: ref('my_model_b')
        rows:
          - {id: 1, b: 2}
          - {id: 2, b: 2}
    overrides:
      macros:
        invocation_id: 123
      vars:
        my_test: var_override
      env_vars:
        MY_TEST: env_var_override
    expect:
      rows:
        - {var_call: var_override, env_var_call: env_var_override, invocation_id: 123}
  - name: test_my_model_string_concat
    model: my_model
    given:
      - input: ref('my_model_a')
        format: csv
        rows: |
          id,string_a
          1,a
      - input: ref('my_model_b')
        format: csv
        rows: |
          id,string_b
          1,b
    expect:
      format: csv
      rows: |
        string_c
        ab
    config:
      tags: test_this
  - name: test_my_model_datetime
    model: my_model
    given:
      - input: ref('my_model_a')
        rows:
          - {id: 1, date_a: "2020-01-01"}
      - input: ref('my_model_b')
        rows:
          - {id: 1}
    expect:
      rows:
        - {date_a: "2020-01-01"}
`;
const PROJECT = {
  'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nvars:\n  my_test: my_test_var\n",
  'models/my_model.sql': MY_MODEL,
  'models/my_model_a.sql': MODEL_A,
  'models/my_model_b.sql': MODEL_B,
};

forEachEngine((engine) => {
  const onEngine = (files: Readonly<Record<string, string>>, name = 'conformance') => conformanceProject(files, name, { engine });

  describe('unit tests (dbt 1.8)', () => {
    it('test_unit_testing.py TestUnitTests: dict and csv rows, overrides, selection by model, name, test_name: and tag:; a failure prints the diff', async () => {
      const p = onEngine({ ...PROJECT, 'models/test_my_model.yml': TESTS });
      await succeedingRun(p.dir);
      const all = p.dbt(['test', '--select', 'my_model']);
      expect(all.code).toBe(1);
      expect(all.results).toHaveLength(5);
      expect(all.statuses).toEqual({
        'unit_test.conformance.my_model.test_my_model': 'fail',
        'unit_test.conformance.my_model.test_my_model_empty': 'pass',
        'unit_test.conformance.my_model.test_my_model_overrides': 'pass',
        'unit_test.conformance.my_model.test_my_model_string_concat': 'pass',
        'unit_test.conformance.my_model.test_my_model_datetime': 'pass',
      });
      // a+b is 3, the test expects 2: dbt's line, its failure count, and daff's diff (+++ actual, --- expected).
      expect(all.stdout).toMatch(/START unit_test my_model::test_my_model \.+ \[RUN\]/);
      expect(all.stdout).toMatch(/FAIL 1 my_model::test_my_model \.+ \[FAIL 1 in/);
      expect(all.stdout).toContain('Failure in unit_test test_my_model (models/test_my_model.yml)');
      expect(all.stdout).toMatch(/actual differs from expected:[\s\S]*?@@ ,c\n.*\+\+\+,3\n.*---,2/);
      const failed = all.results.find((r) => r.unique_id.endsWith('.test_my_model'))!;
      expect(failed.failures).toBe(1);
      expect(failed.message).toContain('actual differs from expected:\n\n@@ ,c\n+++,3\n---,2\n');
      expect(all.stdout).toContain('Finished running 5 unit tests');
      // dbt's retry reruns what failed (a FAIL included): here the one failing unit test.
      const again = runCli(['retry', '--project-dir', p.dir]);
      expect(again.code).toBe(1);
      expect(again.stdout).toMatch(/1 of 1 FAIL 1 my_model::test_my_model \.+ \[FAIL 1/);

      expect(p.dbt(['test', '--select', 'test_name:test_my_model_string_concat']).statuses).toEqual({ 'unit_test.conformance.my_model.test_my_model_string_concat': 'pass' });
      expect(Object.keys(p.dbt(['test', '--select', 'test_my_model_overrides']).statuses)).toEqual(['unit_test.conformance.my_model.test_my_model_overrides']);
      expect(Object.keys(p.dbt(['test', '--select', 'tag:test_this']).statuses)).toEqual(['unit_test.conformance.my_model.test_my_model_string_concat']);
      // `run` never runs unit tests.
      expect(p.dbt(['run']).results.map((r) => r.unique_id).filter((id) => id.startsWith('unit_test.'))).toEqual([]);

      const manifest = JSON.parse(readFileSync(join(p.dir, 'target/manifest.json'), 'utf8')) as { unit_tests: Record<string, { depends_on: { nodes: string[] }; model: string; resource_type: string }> };
      expect(Object.keys(manifest.unit_tests)).toHaveLength(5);
      for (const u of Object.values(manifest.unit_tests)) {
        expect(u.depends_on.nodes).toEqual(['model.conformance.my_model']);
        expect(u.resource_type).toBe('unit_test');
      }
      const ls = p.dbt(['ls', '--resource-type', 'unit_test']);
      expect(ls.stdout.trim().split('\n')).toContain('unit_test:conformance.test_my_model_string_concat');
      expect(p.dbt(['ls', '--select', 'test_type:unit', '--output', 'name']).stdout.trim().split('\n')).toHaveLength(5);

      // DuplicateResourceNameError: two tests of one model with one name.
      p.write('models/test_my_model.yml', `${TESTS}${TESTS.split('\n').slice(1, 14).join('\n')}\n`);
      const dup = p.dbt(['test']);
      expect(dup.code).toBe(2);
      expect(dup.stderr).toMatch(/two unit tests of model 'my_model' are named 'test_my_model': models\/test_my_model\.yml:2 and models\/test_my_model\.yml:\d+/);
    });

    it('test_csv_fixtures.py / test_sql_format.py: fixture files under tests/fixtures, sql rows, a bad format refused with file and line', async () => {
      const p = onEngine({
        ...PROJECT,
        'tests/fixtures/test_my_model_a_fixture.csv': 'id,a\n1,1\n',
        'tests/fixtures/test_my_model_b_fixture.sql': 'select 1 as id, 2 as b, 3 as c, null as string_b',
        'tests/fixtures/test_my_model_expected.csv': 'c\n3\n',
        'models/test_my_model.yml': `unit_tests:
  - name: from_files
    model: my_model
    given:
      - input: ref('my_model_a')
        format: csv
        fixture: test_my_model_a_fixture
      - input: ref('my_model_b')
        format: sql
        fixture: test_my_model_b_fixture
    expect:
      format: csv
      fixture: test_my_model_expected
  - name: sql_rows
    model: my_model
    given:
      - input: ref('my_model_a')
        format: sql
        rows: |
          select 1 as id, 5 as a, 0 as not_testing, 'x' as string_a, null as date_a
      - input: ref('my_model_b')
        rows:
          - {id: 1, b: 2}
    expect:
      format: sql
      rows: select 7 as c, null as string_c, 0 as not_testing, null as date_a, 'my_test_var' as var_call, 'default' as env_var_call, '' as invocation_id
`,
      });
      await succeedingRun(p.dir);
      const out = p.dbt(['test']);
      expect(out.statuses['unit_test.conformance.my_model.from_files']).toBe('pass');
      // sql expect compares every column the model returns: invocation_id differs (the run's id), so this one fails on it.
      expect(out.statuses['unit_test.conformance.my_model.sql_rows']).toBe('fail');
      expect(out.results.find((r) => r.unique_id.endsWith('sql_rows'))!.message).toMatch(/@@.*invocation_id[\s\S]*→/);
      // tests/fixtures holds fixtures, not singular tests.
      expect(out.results).toHaveLength(2);

      p.write('models/test_my_model.yml', 'unit_tests:\n  - name: bad\n    model: my_model\n    given:\n      - input: ref(\'my_model_a\')\n        format: xxxx\n        rows: []\n    expect:\n      rows: []\n');
      const bad = p.dbt(['test']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('models/test_my_model.yml:6: unit test \'bad\': given input 1: format must be one of dict, csv, sql, got "xxxx"');
    });

    it('test_ut_sources.py and seeds: a source input; a seed input without rows reads the seed file; an ephemeral input needs format: sql', async () => {
      const p = onEngine({
        'seeds/countries.csv': 'code,name\nfr,France\nde,Germany\n',
        'models/sources.yml': 'sources:\n  - name: raw\n    schema: main\n    tables:\n      - name: events\n',
        'models/events_named.sql': "{{ config(materialized='table') }}\nselect e.id, c.name from {{ source('raw', 'events') }} e join {{ ref('countries') }} c on c.code = e.country\n",
        'models/eph.sql': "{{ config(materialized='ephemeral') }}\nselect 1 as id\n",
        'models/uses_eph.sql': "select id * 10 as tenfold from {{ ref('eph') }}\n",
        'models/unit.yml': `unit_tests:
  - name: named_events
    model: events_named
    given:
      - input: source('raw', 'events')
        rows:
          - {id: 1, country: fr}
          - {id: 2, country: de}
          - {id: 3, country: it}
      - input: ref('countries')
    expect:
      rows:
        - {id: 1, name: France}
        - {id: 2, name: Germany}
  - name: tenfold
    model: uses_eph
    given:
      - input: ref('eph')
        format: sql
        rows: select 4 as id union all select 5 as id
    expect:
      rows: [{tenfold: 40}, {tenfold: 50}]
`,
      });
      p.exec('create table events (id integer, country text)');
      await succeedingRun(p.dir, { command: 'seed' });
      const out = p.dbt(['test']);
      expect(out.code, out.stdout).toBe(0);
      expect(out.statuses).toEqual({ 'unit_test.conformance.events_named.named_events': 'pass', 'unit_test.conformance.uses_eph.tenfold': 'pass' });
      // The real tables were only read: the source still has no rows, no model was built.
      expect(p.count('events')).toBe(0);
      expect(p.relationType('events_named')).toBeUndefined();

      p.write('models/unit.yml', "unit_tests:\n  - name: tenfold\n    model: uses_eph\n    given:\n      - input: ref('eph')\n        rows: [{id: 4}]\n    expect:\n      rows: [{tenfold: 40}]\n");
      const eph = p.dbt(['test']);
      expect(eph.code).toBe(2);
      expect(eph.stderr).toContain("models/unit.yml:5: unit test 'tenfold': input ref('eph') is an ephemeral model, so its rows must be given with format: sql");
    });

    it('incremental models: is_incremental must be overridden, true needs a this input; the test sees only the rows the run would write', () => {
      const model = `{{ config(materialized='incremental', unique_key='id') }}
select id, amount, loaded from {{ ref('events') }}
{% if is_incremental() %}where loaded > (select max(loaded) from {{ this }}){% endif %}
`;
      const files = {
        'models/events.sql': "select 1 as id, 10 as amount, '2024-01-01' as loaded",
        'models/totals.sql': model,
      };
      const given = "    given:\n      - input: ref('events')\n        rows:\n          - {id: 1, amount: 10, loaded: '2024-01-01'}\n          - {id: 2, amount: 20, loaded: '2024-01-02'}\n          - {id: 3, amount: 30, loaded: '2024-01-03'}\n";
      const p = onEngine({ ...files, 'models/unit.yml': `unit_tests:\n  - name: no_override\n    model: totals\n${given}    expect:\n      rows: []\n` });
      const missing = p.dbt(['test']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("Boolean override for 'is_incremental' must be provided for unit test 'no_override' in model 'totals'");

      p.write('models/unit.yml', `unit_tests:\n  - name: no_this\n    model: totals\n    overrides: {macros: {is_incremental: true}}\n${given}    expect:\n      rows: []\n`);
      expect(p.dbt(['test']).stderr).toContain("Unit test 'no_this' for incremental model 'totals' must have a 'this' input");

      p.write('models/unit.yml', `unit_tests:
  - name: incremental_mode
    model: totals
    overrides: {macros: {is_incremental: true}}
${given}      - input: this
        rows:
          - {id: 1, amount: 10, loaded: '2024-01-01'}
          - {id: 2, amount: 20, loaded: '2024-01-02'}
    expect:
      rows:
        - {id: 3, amount: 30, loaded: '2024-01-03'}
  - name: full_refresh_mode
    model: totals
    overrides: {macros: {is_incremental: false}}
${given}    expect:
      rows:
        - {id: 1, amount: 10, loaded: '2024-01-01'}
        - {id: 2, amount: 20, loaded: '2024-01-02'}
        - {id: 3, amount: 30, loaded: '2024-01-03'}
`);
      // build on an empty warehouse: the unit tests run before totals exists (dbt needs it built first,
      // dbt-core #10695; mini-dbt takes `this`'s columns from the model's own query), then the model builds.
      const build = p.dbt(['build']);
      expect(build.code, build.stdout).toBe(0);
      expect(build.results.map((r) => r.unique_id)).toEqual([
        'model.conformance.events',
        'unit_test.conformance.totals.full_refresh_mode',
        'unit_test.conformance.totals.incremental_mode',
        'model.conformance.totals',
      ]);
    });

    it('build: a failing unit test skips its model and what depends on it, whose tables stay as they were', async () => {
      const p = onEngine({
        'models/base.sql': "{{ config(materialized='table') }}\nselect 1 as id, 5 as amount",
        'models/doubled.sql': "{{ config(materialized='table') }}\nselect id, amount * 2 as amount from {{ ref('base') }}",
        'models/after.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('doubled') }}",
        'models/unit.yml': "unit_tests:\n  - name: doubles\n    model: doubled\n    given:\n      - input: ref('base')\n        rows: [{id: 1, amount: 5}]\n    expect:\n      rows: [{id: 1, amount: 10}]\n",
      });
      await succeedingRun(p.dir, { command: 'build' });
      expect(p.rows('doubled')).toEqual([{ id: 1, amount: 10 }]);
      p.write('models/doubled.sql', "{{ config(materialized='table') }}\nselect id, amount * 3 as amount from {{ ref('base') }}");
      const out = p.dbt(['build']);
      expect(out.code).toBe(1);
      expect(out.statuses).toEqual({
        'model.conformance.base': 'success',
        'unit_test.conformance.doubled.doubles': 'fail',
        'model.conformance.doubled': 'skipped',
        'model.conformance.after': 'skipped',
      });
      expect(out.stdout).toMatch(/@@,id,amount\n.*→ ,1 ,10→15/);
      expect(p.rows('doubled')).toEqual([{ id: 1, amount: 10 }]);
      // dbt 1.8's --exclude-resource-type / --resource-type: build without unit tests; test only them.
      const without = p.dbt(['build', '--exclude-resource-type', 'unit_test']);
      expect(without.code).toBe(0);
      expect(Object.keys(without.statuses)).toEqual(['model.conformance.base', 'model.conformance.doubled', 'model.conformance.after']);
      expect(p.rows('doubled')).toEqual([{ id: 1, amount: 15 }]);
      expect(Object.keys(p.dbt(['test', '--resource-type', 'unit_test']).statuses)).toEqual(['unit_test.conformance.doubled.doubles']);
      expect(p.dbt(['build', '--resource-type', 'unit_tst']).stderr).toContain("--resource-type: unknown resource type 'unit_tst'. Did you mean 'unit_test'?");
    });

    it('bad input: an unknown model or input (closest name), a ref not given, a column the input lacks', async () => {
      const p = onEngine({ ...PROJECT, 'models/unit.yml': "unit_tests:\n  - name: t\n    model: my_modle\n    given: []\n    expect:\n      rows: []\n" });
      const model = p.dbt(['test']);
      expect(model.code).toBe(2);
      expect(model.stderr).toContain("Unable to find model 'conformance.my_modle' for unit test 't' in models/unit.yml. Did you mean 'my_model'?");

      p.write('models/unit.yml', "unit_tests:\n  - name: t\n    model: my_model\n    given:\n      - input: ref('my_model_c')\n        rows: []\n    expect:\n      rows: []\n");
      expect(p.dbt(['test']).stderr).toContain("Unit test 't' had an input (ref('my_model_c')) which was not found in the manifest. Did you mean 'my_model_a'?");

      p.write('models/unit.yml', "unit_tests:\n  - name: t\n    model: my_model\n    given:\n      - input: ref('my_model_a')\n        rows: [{id: 1}]\n    expect:\n      rows: []\n");
      await succeedingRun(p.dir);
      const notGiven = p.dbt(['test']);
      expect(notGiven.code).toBe(1);
      expect(notGiven.statuses['unit_test.conformance.my_model.t']).toBe('error');
      expect(notGiven.stdout).toContain("unit test 't': model 'my_model' reads ref('my_model_b'), which is not one of the test's given inputs");

      p.write('models/unit.yml', "unit_tests:\n  - name: t\n    model: my_model\n    given:\n      - input: ref('my_model_a')\n        rows: [{id: 1, nope: 2}]\n      - input: ref('my_model_b')\n        rows: []\n    expect:\n      rows: []\n");
      const column = p.dbt(['test']);
      expect(column.code).toBe(1);
      expect(column.stdout).toContain("Invalid column name: 'nope' in unit test fixture for 'my_model_a'.");
      expect(column.stdout).toContain("Accepted columns for 'my_model_a' are: ['a', 'id', 'not_testing', 'string_a', 'date_a']");
    });

    it('the project file\'s unit_tests: tree: +tags by folder, +enabled: false by test name (dbt_project.yml config of unit tests)', () => {
      const unit = "unit_tests:\n  - name: adds\n    model: my_model_a\n    given: []\n    expect:\n      rows: [{a: 1}]\n  - name: off\n    model: my_model_a\n    given: []\n    expect:\n      rows: []\n";
      const p = onEngine({
        'dbt_project.yml': "name: conformance\nversion: '1.0'\nprofile: default\nunit_tests:\n  conformance:\n    +tags: [ut]\n    marts:\n      my_model_a:\n        off:\n          +enabled: false\n",
        'models/marts/my_model_a.sql': MODEL_A,
        'models/marts/unit.yml': unit,
      });
      const out = p.dbt(['test', '--select', 'tag:ut']);
      expect(out.code, out.stdout).toBe(0);
      expect(out.statuses).toEqual({ 'unit_test.conformance.my_model_a.adds': 'pass' });
    });
  });
});
