import { beforeAll, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt: where a test's failing rows are kept, as
 * dbt-tests-adapter's store_test_failures_tests/basic.py drives it
 * (StoreTestFailuresAsInteractions, ...AsProjectLevelEphemeral,
 * ...AsExceptions). store_failures_as (table, view, ephemeral) wins wherever
 * it is set; unset, store_failures keeps them in a table. On PostgreSQL they
 * are kept in dbt's audit schema, `<target schema>_dbt_test__audit`, named
 * after the test; SQLite keeps one file, so there the relation is
 * `dbt_test__audit__<test>` in main.
 */

const CHIPMUNKS = 'name,shirt\nalvin,red\nsimon,blue\ntheodore,green\n';

const singular = (config: string, where = "shirt = 'green'") =>
  `{{ config(${config}) }}\nselect *\nfrom {{ ref('chipmunks') }}\nwhere ${where}\n`;

const TESTS: Record<string, string> = {
  view_unset_pass: singular('store_failures_as="view"', "shirt = 'purple'"),
  view_true: singular('store_failures_as="view", store_failures=True'),
  view_false: singular('store_failures_as="view", store_failures=False'),
  view_unset: singular('store_failures_as="view"'),
  table_true: singular('store_failures_as="table", store_failures=True'),
  table_false: singular('store_failures_as="table", store_failures=False'),
  table_unset: singular('store_failures_as="table"'),
  ephemeral_true: singular('store_failures_as="ephemeral", store_failures=True'),
  ephemeral_false: singular('store_failures_as="ephemeral", store_failures=False'),
  ephemeral_unset: singular('store_failures_as="ephemeral"'),
  unset_true: singular('store_failures=True'),
  unset_false: singular('store_failures=False'),
  unset_unset: singular('severity="error"'),
};

function project(engine: EngineName, tests: Record<string, string>, projectConfig = ''): ConformanceProject {
  const files: Record<string, string> = {
    'seeds/chipmunks_stage.csv': CHIPMUNKS,
    'models/chipmunks.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('chipmunks_stage') }}\n",
  };
  for (const [name, sql] of Object.entries(tests)) files[`tests/${name}.sql`] = sql;
  const p = conformanceProject(files, 'store_failures_as', { engine });
  if (projectConfig) p.write('dbt_project.yml', `name: store_failures_as\nversion: '1.0'\nprofile: default\n${projectConfig}`);
  return p;
}

/** Where the test's failures are kept on this engine: [schema, name]. */
function audit(p: ConformanceProject, test: string): [string, string] {
  return p.engine === 'postgres' ? ['public_dbt_test__audit', test] : ['main', `dbt_test__audit__${test}`];
}

/** 'table', 'view', or null: what the warehouse holds for a test's failures. */
function keptAs(p: ConformanceProject, test: string): string | null {
  const [schema, name] = audit(p, test);
  const rows = p.engine === 'postgres'
    ? p.query(`select case c.relkind when 'v' then 'view' else 'table' end as type from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = '${schema}' and c.relname = '${name}'`)
    : p.query(`select type from sqlite_master where name = '${name}'`);
  return rows.length === 0 ? null : String(rows[0]!.type);
}

function statusOf(p: ConformanceProject, run: ReturnType<ConformanceProject['dbt']>, test: string): string | undefined {
  return run.results.find((r) => r.unique_id.startsWith(`test.store_failures_as.${test}`))?.status;
}

describeEachEngine('store_failures_as and store_failures (StoreTestFailuresAsInteractions)', (engine) => {
  let p: ConformanceProject;
  let run: ReturnType<ConformanceProject['dbt']>;
  beforeAll(() => {
    p = project(engine, TESTS);
    expect(p.dbt(['seed']).code).toBe(0);
    expect(p.dbt(['run']).code).toBe(0);
    run = p.dbt(['test']);
  }, 120_000);

  it('every test runs: the control passes, the rest fail (exit 1)', () => {
    expect(run.code).toBe(1);
    expect(statusOf(p, run, 'view_unset_pass')).toBe('pass');
    for (const name of Object.keys(TESTS).filter((n) => n !== 'view_unset_pass')) expect([name, statusOf(p, run, name)]).toEqual([name, 'fail']);
  });

  it('store_failures_as decides wherever it is set; unset, store_failures=true keeps a table', () => {
    const kept = Object.fromEntries(Object.keys(TESTS).map((name) => [name, keptAs(p, name)]));
    expect(kept).toEqual({
      view_unset_pass: 'view',
      view_true: 'view',
      view_false: 'view',
      view_unset: 'view',
      table_true: 'table',
      table_false: 'table',
      table_unset: 'table',
      ephemeral_true: null,
      ephemeral_false: null,
      ephemeral_unset: null,
      unset_true: 'table',
      unset_false: null,
      unset_unset: null,
    });
  });

  it("the kept relations hold the failing rows, and the run names the query that reads them", () => {
    const [schema, name] = audit(p, 'view_true');
    const relation = schema === 'main' ? `"${name}"` : `"${schema}"."${name}"`;
    expect(p.query(`select name, shirt from ${relation}`)).toEqual([{ name: 'theodore', shirt: 'green' }]);
    expect(run.stdout).toContain(`select * from ${relation}`);
    expect(p.query(`select count(*) as n from ${p.engine === 'postgres' ? '"public_dbt_test__audit"."view_unset_pass"' : '"dbt_test__audit__view_unset_pass"'}`)).toEqual([{ n: 0 }]);
  });

  it('a second `test` replaces what the first kept, a view by a view and a table by a table', () => {
    p.exec("insert into chipmunks values ('dave', 'green')");
    p.dbt(['test']);
    const [schema, name] = audit(p, 'table_true');
    const relation = schema === 'main' ? `"${name}"` : `"${schema}"."${name}"`;
    expect(p.query(`select name from ${relation} order by name`)).toEqual([{ name: 'dave' }, { name: 'theodore' }]);
    expect(keptAs(p, 'table_true')).toBe('table');
    expect(keptAs(p, 'view_true')).toBe('view');
  });
});

describeEachEngine('store_failures_as at the project level (StoreTestFailuresAsProjectLevelEphemeral, ...AsExceptions)', (engine) => {
  it('ephemeral in the project turns storing off even with store_failures: true; a test setting view keeps a view', () => {
    const p = project(engine, { results_unset: TESTS.unset_unset!, results_true: TESTS.unset_true!, results_view: TESTS.view_unset! }, 'data_tests:\n  +store_failures_as: ephemeral\n  +store_failures: true\n');
    expect(p.dbt(['seed']).code).toBe(0);
    expect(p.dbt(['run']).code).toBe(0);
    expect(p.dbt(['test']).code).toBe(1);
    expect([keptAs(p, 'results_unset'), keptAs(p, 'results_true'), keptAs(p, 'results_view')]).toEqual([null, null, 'view']);
  });

  it("a value that is none of ephemeral, table, view: the test errors with dbt's message, nothing is kept", () => {
    const p = project(engine, { store_failures_as_error: singular('store_failures_as="error"') });
    expect(p.dbt(['seed']).code).toBe(0);
    expect(p.dbt(['run']).code).toBe(0);
    const run = p.dbt(['test']);
    expect(run.code).toBe(1);
    expect(run.results).toHaveLength(1);
    expect(run.results[0]!.status).toBe('error');
    expect(run.results[0]!.message).toContain("'error' is not a valid value for store_failures_as. Accepted values are: ['ephemeral', 'table', 'view']");
    expect(keptAs(p, 'store_failures_as_error')).toBeNull();
  });
});
