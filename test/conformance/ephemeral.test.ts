import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 13): ephemeral models. Modelled on
 * dbt-tests-adapter basic/test_ephemeral.py (BaseEphemeral),
 * ephemeral/test_ephemeral.py (BaseEphemeralMulti, BaseEphemeralNested,
 * BaseEphemeralErrorHandling), basic/test_singular_tests_ephemeral.py, and
 * dbt-core's tests/functional/schema_tests/test_schema_v2_tests.py
 * (TestHooksInTests: a generic test on an ephemeral model).
 * Ephemerals are never relations and never results: the cases read the
 * relations built from them and the statuses of the nodes that use them.
 */

// Rows in the shape of dbt's ephemeral fixture (id, first_name, gender).
const PEOPLE = `id,first_name,gender
1,Jack,Male
2,Kathryn,Female
3,Gerald,Male
4,Bonnie,Female
5,Harold,Male
6,Jacqueline,Female
7,Wanda,Female
`;

const manifestNodeIds = (dir: string): string[] => Object.keys((JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, unknown> }).nodes).sort();

describeEachEngine('an ephemeral model feeds a view and a table and is not built itself (BaseEphemeral)', (engine) => {
  const files = {
    'seeds/base.csv': PEOPLE,
    'models/ephemeral.sql': "{{ config(materialized='ephemeral') }}\nselect * from {{ ref('base') }}\n",
    'models/view_model.sql': "{{ config(materialized='view') }}\nselect * from {{ ref('ephemeral') }}\n",
    'models/table_model.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('ephemeral') }}\n",
  };

  it('run has two results (no ephemeral), both relations equal the seed, and no relation is named after the ephemeral', async () => {
    const p = conformanceProject(files, 'ephemeral', { engine });
    expect((await succeedingRun(p.dir, { command: 'seed' })).results.map((r) => [r.uniqueId, r.status])).toEqual([['seed.ephemeral.base', 'success']]);
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.ephemeral.view_model': 'success', 'model.ephemeral.table_model': 'success' });
    expect([p.relationType('view_model'), p.relationType('table_model'), p.relationType('ephemeral')]).toEqual(['view', 'table', undefined]);
    expect(p.difference('base', 'view_model')).toBe(0);
    expect(p.difference('base', 'table_model')).toBe(0);
    // The manifest still holds the ephemeral as a node (4 nodes: the seed and three models).
    expect(manifestNodeIds(p.dir)).toEqual(['model.ephemeral.ephemeral', 'model.ephemeral.table_model', 'model.ephemeral.view_model', 'seed.ephemeral.base']);
  });
});

describeEachEngine('several ephemerals feeding one model share one CTE each (BaseEphemeralMulti)', (engine) => {
  const files = {
    'seeds/seed.csv': PEOPLE,
    'models/base/base.sql': "{{ config(materialized='ephemeral') }}\n\nselect * from {{ this.schema }}.seed\n",
    'models/base/base_copy.sql': "{{ config(materialized='ephemeral') }}\n\nselect * from {{ ref('base') }}\n",
    'models/base/female_only.sql': "{{ config(materialized='ephemeral') }}\n\nselect * from {{ ref('base_copy') }} where gender = 'Female'\n",
    // the same ephemeral twice in one model
    'models/dependent.sql': "select * from {{ref('base')}} where gender = 'Male'\nunion all\nselect * from {{ref('base')}} where gender = 'Female'\n",
    // an ephemeral and an ephemeral of it
    'models/double_dependent.sql': "-- base_copy reads base: one CTE for base serves both\nselect * from {{ref('base')}} where gender = 'Male'\nunion all\nselect * from {{ref('base_copy')}} where gender = 'Female'\n",
    // an ephemeral chain and a model built from ephemerals
    'models/super_dependent.sql': "select * from {{ref('female_only')}}\nunion all\nselect * from {{ref('double_dependent')}} where gender = 'Male'\n",
  };

  // One project, seeded (in process) and run once: the first case checks the run, the second its executed SQL.
  let p: ReturnType<typeof conformanceProject>;
  let run: ReturnType<ReturnType<typeof conformanceProject>['dbt']>;
  beforeAll(async () => {
    p = conformanceProject(files, 'test', { engine });
    await succeedingRun(p.dir, { command: 'seed' });
    run = p.dbt(['run']);
  });

  it('run builds the three models, each equal to the seed', () => {
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.test.dependent': 'success', 'model.test.double_dependent': 'success', 'model.test.super_dependent': 'success' });
    for (const model of ['dependent', 'double_dependent', 'super_dependent']) {
      expect(p.difference('seed', model), model).toBe(0);
      expect(p.count(model), model).toBe(7);
    }
  });

  it('the executed SQL of double_dependent defines each ephemeral CTE once, base before base_copy', () => {
    expect(run.code).toBe(0);
    const sql = readFileSync(join(p.dir, 'target/run/test/models/double_dependent.sql'), 'utf8');
    const definitions = [...sql.matchAll(/(__dbt__cte__\w+) as \(/g)].map((m) => m[1]);
    expect(definitions).toEqual(['__dbt__cte__base', '__dbt__cte__base_copy']);
  });
});

describeEachEngine('an ephemeral of an ephemeral of a table (BaseEphemeralNested)', (engine) => {
  it('run has two results (the table and the view) and the view equals the table, NULL row included', () => {
    const p = conformanceProject({
      'models/source_table.sql': "{{ config(materialized='table') }}\n\nwith source_data as (\n    select 1 as id\n    union all\n    select null as id\n)\n\nselect *\nfrom source_data\n",
      'models/ephemeral_level_two.sql': "{{\n  config(\n    materialized = \"ephemeral\",\n  )\n}}\nselect * from {{ ref('source_table') }}\n",
      'models/ephemeral.sql': "{{\n  config(\n    materialized = \"ephemeral\",\n  )\n}}\nselect * from {{ref(\"ephemeral_level_two\")}}\n",
      'models/root_view.sql': "select * from {{ref(\"ephemeral\")}}\n",
    }, 'test', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.test.source_table': 'success', 'model.test.root_view': 'success' });
    expect(p.relationType('root_view')).toBe('view');
    expect(p.rows('root_view', 'id nulls first')).toEqual([{ id: null }, { id: 1 }]);
    expect(p.difference('source_table', 'root_view')).toBe(0);
    const sql = readFileSync(join(p.dir, 'target/run/test/models/root_view.sql'), 'utf8');
    expect([...sql.matchAll(/(__dbt__cte__\w+) as \(/g)].map((m) => m[1])).toEqual(['__dbt__cte__ephemeral_level_two', '__dbt__cte__ephemeral']);
  });
});

describeEachEngine('an ephemeral that fails: the model using it fails, the rest of the project runs, exit 1 (BaseEphemeralErrorHandling)', (engine) => {
  const base = {
    'seeds/seed.csv': PEOPLE,
    'models/base/base.sql': "{{ config(materialized='ephemeral') }}\n\nselect * from {{ this.schema }}.seed\n",
    'models/dependent.sql': "-- base_copy is an error\nselect * from {{ref('base_copy')}} where gender = 'Male'\n",
    'models/unrelated.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('base') }}\n",
  };

  it('a SQL error in the ephemeral: the dependent model errors with the database message, the unrelated model is built', async () => {
    const p = conformanceProject({ ...base, 'models/base/base_copy.sql': "{{ config(materialized='ephemeral') }}\n\nselect id, gender, no_such_column from {{ ref('base') }}\n" }, 'test', { engine });
    await succeedingRun(p.dir, { command: 'seed' });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.statuses).toEqual({ 'model.test.dependent': 'error', 'model.test.unrelated': 'success' });
    expect(run.results.find((r) => r.unique_id === 'model.test.dependent')!.message).toContain('no_such_column');
    expect(p.relationType('dependent')).toBeUndefined();
    expect(p.difference('seed', 'unrelated')).toBe(0);
  });

  // The run-time Jinja error: one project, seeded (in process) and run once, read by the two cases below.
  const runTimeJinja = { ...base, 'models/base/base_copy.sql': "{{ config(materialized='ephemeral') }}\n\n{% if execute %}{{ adapter.invalid_method() }}{% endif %}\n\nselect * from {{ ref('base') }}\n" };
  let jinja: ReturnType<typeof conformanceProject>;
  let jinjaRun: ReturnType<ReturnType<typeof conformanceProject>['dbt']>;
  beforeAll(async () => {
    jinja = conformanceProject(runTimeJinja, 'test', { engine });
    await succeedingRun(jinja.dir, { command: 'seed' });
    jinjaRun = jinja.dbt(['run']);
  });

  it('a Jinja error met only at run time (under execute): exit 1, the dependent is not built, the unrelated model is', () => {
    const p = jinja;
    const run = jinjaRun;
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.statuses['model.test.unrelated']).toBe('success');
    expect(['error', 'skipped']).toContain(run.statuses['model.test.dependent']);
    expect(run.results.find((r) => r.unique_id === 'model.test.dependent')!.message).toContain('invalid_method');
    expect(p.relationType('dependent')).toBeUndefined();
    expect(p.difference('seed', 'unrelated')).toBe(0);
  });

  // dbt: the dependent's message "Compilation Error in model.test.dependent, caused by compilation error in referenced
  // ephemeral model model.test.base_copy" (its status `skipped`; mini-dbt's is `error`, README's deviations).
  it("a run-time Jinja error in an ephemeral fails the dependent with dbt's wording, at the ephemeral's own file and line", () => {
    const run = jinjaRun;
    expect(run.code).toBe(1);
    const message = run.results.find((r) => r.unique_id === 'model.test.dependent')!.message!;
    expect(message).toContain('models/base/base_copy.sql:3');
    expect(message).toContain("compilation error in referenced ephemeral model model.test.base_copy: 'adapter' has no attribute 'invalid_method'");
  });

  // dbt's own fixture calls {{ adapter.invalid_method() }} unguarded: dbt's parse renders unknown names as a callable
  // undefined, so the project loads and only the dependent fails at run time (skipped, exit 1). mini-dbt refuses the
  // load (exit 2, "'adapter' has no attribute 'invalid_method'") and runs nothing.
  it('an unknown adapter method in an ephemeral is a run-time error of its dependents, not a load error', async () => {
    const p = conformanceProject({ ...base, 'models/base/base_copy.sql': "{{ config(materialized='ephemeral') }}\n\n{{ adapter.invalid_method() }}\n\nselect * from {{ ref('base') }}\n" }, 'test', { engine });
    expect(p.dbt(['ls']).code).toBe(0);
    await succeedingRun(p.dir, { command: 'seed' });
    const run = p.dbt(['run']);
    expect(run.code).toBe(1);
    expect(run.statuses).toEqual({ 'model.test.dependent': 'error', 'model.test.unrelated': 'success' });
    expect(run.results.find((r) => r.unique_id === 'model.test.dependent')!.message).toContain("'adapter' has no attribute 'invalid_method'");
    expect(p.difference('seed', 'unrelated')).toBe(0);
  });
});

describeEachEngine('singular tests that ref an ephemeral model (BaseSingularTestsEphemeral)', (engine) => {
  const BASE_IDS = `id,name\n${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `${i},name${i}`).join('\n')}\n`;
  const passing = "with my_other_cool_cte as (\n    select id, name from {{ ref('ephemeral') }}\n    where id > 1000\n)\nselect name, id from my_other_cool_cte\n";
  const failing = "with my_other_cool_cte as (\n    select id, name from {{ ref('ephemeral') }}\n    where id < 1000\n)\nselect name, id from my_other_cool_cte\n";
  const files = {
    'seeds/base.csv': BASE_IDS,
    'models/ephemeral.sql': "{{ config(materialized='ephemeral') }}\nwith my_cool_cte as (\n  select name, id from {{ ref('base') }}\n)\nselect id, name from my_cool_cte where id is not null\n",
    'models/passing_model.sql': passing,
    'models/failing_model.sql': failing,
    'tests/passing.sql': passing,
    'tests/failing.sql': failing,
  };

  // One project seeded (in process) for the `test` case and the `run` case (test builds nothing; run reads the seed).
  let p: ReturnType<typeof conformanceProject>;
  beforeAll(async () => {
    p = conformanceProject(files, 'singular_tests_ephemeral', { engine });
    await succeedingRun(p.dir, { command: 'seed' });
  });

  // dbt inlines the ephemeral into the test's SQL as a CTE: passing passes, failing fails once per seed row.
  it("test: a singular test reading an ephemeral passes or fails on the ephemeral's rows (failures = 10)", () => {
    const test = p.dbt(['test']);
    expect(test.code, test.stdout + test.stderr).toBe(1);
    const byName = Object.fromEntries(test.results.map((r) => [r.unique_id.split('.').at(-1), r]));
    expect(byName.passing).toMatchObject({ status: 'pass', failures: 0 });
    expect(byName.failing).toMatchObject({ status: 'fail', failures: 10 });
  });

  // dbt (TestHooksInTests): `unique` on column id of an ephemeral `select 1 as id`; `test --select ephemeral` has 1 result, pass.
  it('a generic test declared on an ephemeral model runs on its rows (unique on select 1 as id: pass; a duplicate fails)', () => {
    const p = conformanceProject({
      'models/ephemeral.sql': "{{ config(materialized='ephemeral') }}\nselect 1 as id\n",
      'models/schema.yml': 'models:\n  - name: ephemeral\n    columns:\n      - name: id\n        data_tests: [unique]\n',
    }, 'ephemeral_tests', { engine });
    const test = p.dbt(['test', '--select', 'ephemeral']);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.results.map((r) => [r.unique_id.replace(/\.[0-9a-f]{10}$/, ''), r.status])).toEqual([['test.ephemeral_tests.unique_ephemeral_id', 'pass']]);
    p.write('models/ephemeral.sql', "{{ config(materialized='ephemeral') }}\nselect 1 as id union all select 1\n");
    const failing = p.dbt(['test', '--select', 'ephemeral']);
    expect(failing.code).toBe(1);
    expect(failing.results.map((r) => [r.status, r.failures])).toEqual([['fail', 1]]);
  });

  it('run builds the two models (WITH merged into the CTEs of the ephemeral) and neither is the ephemeral', () => {
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.singular_tests_ephemeral.failing_model': 'success', 'model.singular_tests_ephemeral.passing_model': 'success' });
    expect(p.count('passing_model')).toBe(0);
    expect(p.rows('failing_model', 'id')).toEqual(p.rows('base', 'id').map((r) => ({ name: r.name, id: r.id })));
  });
});
