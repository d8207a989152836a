import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 15): the project's on-run-start / on-run-end
 * hooks. Modelled on dbt-tests-adapter hooks/test_run_hooks.py
 * (BasePrePostRunHooks: the hooks' order, the context a macro called from a hook
 * sees, `schemas` and `database_schemas`, on run and on seed) and dbt-core's
 * tests/functional/hooks/test_hooks.py (Test__StartHookFail__FlagIsTrue__ModelSkipped,
 * Test__ModelPass__EndHookFail, Test__SelectorEmpty__NoHooksRan). The audit table
 * the hooks write is created by the hooks themselves.
 */
const CUSTOM_RUN_HOOK = `
{% macro custom_run_hook(state, target, run_started_at, invocation_id) %}
   insert into on_run_hook (
        test_state, target_dbname, target_host, target_name, target_schema, target_type,
        target_user, target_pass, target_threads, run_started_at, invocation_id, thread_id
   ) VALUES (
    '{{ state }}', '{{ target.dbname }}', '{{ target.host }}', '{{ target.name }}', '{{ target.schema }}', '{{ target.type }}',
    '{{ target.user }}', '{{ target.get("pass", "") }}', {{ target.threads }}, '{{ run_started_at }}', '{{ invocation_id }}', '{{ thread_id }}'
   )
{% endmacro %}
`;
const PROJECT_HOOKS = `on-run-start:
  - "create table if not exists on_run_hook (test_state text, target_dbname text, target_host text, target_name text, target_schema text, target_type text, target_user text, target_pass text, target_threads int, run_started_at text, invocation_id text, thread_id text)"
  - "{{ custom_run_hook('start', target, run_started_at, invocation_id) }}"
  - "create table {{ target.schema }}.start_hook_order_test ( id int )"
  - "drop table {{ target.schema }}.start_hook_order_test"
  - "{{ log(env_var('TERM_TEST'), info=True) }}"
on-run-end:
  - "{{ custom_run_hook('end', target, run_started_at, invocation_id) }}"
  - "create table {{ target.schema }}.end_hook_order_test ( id int )"
  - "drop table {{ target.schema }}.end_hook_order_test"
  - "create table {{ target.schema }}.schemas ( schema text )"
  - "insert into {{ target.schema }}.schemas (schema) values {% for schema in schemas %}( '{{ schema }}' ){% if not loop.last %},{% endif %}{% endfor %}"
  - "create table {{ target.schema }}.db_schemas ( db text, schema text )"
  - "insert into {{ target.schema }}.db_schemas (db, schema) values {% for db, schema in database_schemas %}('{{ db }}', '{{ schema }}' ){% if not loop.last %},{% endif %}{% endfor %}"
`;

/** The engine's words for the hook's missing table. */
const missingHookTable = (engine: EngineName) => (engine === 'postgres' ? 'relation "public.my_hook_table" does not exist' : 'no such table: main.my_hook_table');

describeEachEngine('on-run-start and on-run-end run around run and seed, in order, with the dbt context (BasePrePostRunHooks)', (engine) => {
  const files = {
    'dbt_project.yml': `name: test\nversion: '1.0'\nprofile: default\n${PROJECT_HOOKS}`,
    'macros/before-and-after.sql': CUSTOM_RUN_HOOK,
    'macros/hook.sql': '{% macro hook() %}\n  select 1\n{% endmacro %}\n',
    'models/hooks.sql': 'select 1 as id\n',
    'seeds/example_seed.csv': 'a,b,c\n1,2,3\n',
  };

  it.each(['run', 'seed'])('%s: one start row and one end row, the order tables gone, the schemas listed', (command) => {
    process.env.TERM_TEST = 'TESTING';
    const p = conformanceProject(files, 'test', { engine });
    const out = p.dbt([command]);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const rows = p.rows('on_run_hook', 'test_state desc');
    expect(rows.map((r) => r.test_state)).toEqual(['start', 'end']);
    for (const r of rows) {
      expect(r).toMatchObject(engine === 'postgres'
        ? { target_name: 'pg', target_schema: 'public', target_type: 'postgres', target_threads: 1, target_pass: '' }
        : { target_name: 'dev', target_schema: 'main', target_type: 'sqlite', target_threads: 1, target_pass: '' });
      expect(String(r.run_started_at).length).toBeGreaterThan(0);
      expect(String(r.thread_id)).toMatch(/^Thread-/);
    }
    // One invocation: the same id at the start and at the end.
    expect(rows[0]!.invocation_id).toBe(rows[1]!.invocation_id);
    expect(String(rows[0]!.invocation_id).length).toBeGreaterThan(0);
    expect(p.relationType('start_hook_order_test')).toBeUndefined();
    expect(p.relationType('end_hook_order_test')).toBeUndefined();
    const schema = engine === 'postgres' ? 'public' : 'main';
    expect(p.rows('schemas')).toEqual([{ schema }]);
    expect(p.rows('db_schemas')).toEqual([{ db: engine === 'postgres' ? p.pg!.database : 'main', schema }]);
    // dbt's lines, and the log() of a hook.
    expect(out.stdout).toContain('Running 5 on-run-start hooks');
    expect(out.stdout).toMatch(/1 of 5 START hook: test\.on-run-start\.0 \.+ \[RUN\]/);
    expect(out.stdout).toMatch(/1 of 5 OK hook: test\.on-run-start\.0 \.+ \[OK in \d+\.\d\ds\]/);
    expect(out.stdout).toContain('Running 7 on-run-end hooks');
    expect(out.stdout).toContain('TESTING');
    expect(out.stdout).toMatch(/Finished running 12 project hooks, 1 (view model|seed) in/);
  });
});

describeEachEngine('a failing on-run-start hook skips every node; on-run-end still runs (Test__StartHookFail__FlagIsTrue__ModelSkipped)', (engine) => {
  it('the hooks after it are skipped, the model is skipped, exit 1, counted as dbt counts', () => {
    const p = conformanceProject({
      'dbt_project.yml': `name: test\nversion: '1.0'\nprofile: default
on-run-start:
  - "create table {{ target.schema }}.my_hook_table ( id int )"
  - "drop table {{ target.schema }}.my_hook_table"
  - "insert into {{ target.schema }}.my_hook_table (id) values (1, 2, 3)"
  - "create table {{ target.schema }}.my_hook_table ( id int )"
on-run-end:
  - "create table end_audit as select {{ results | length }} as n, '{{ results[0].status }}' as status"
`,
      'models/my_model.sql': 'select * from {{ target.schema }}.my_hook_table union all select * from {{ target.schema }}.my_end_table\n',
    }, 'test', { engine });
    const out = p.dbt(['run']);
    expect(out.code).toBe(1);
    // run_results.json as dbt's: the hooks as operations, before and after the nodes.
    expect(out.results.map((r) => [r.unique_id, r.status])).toEqual([
      ['operation.test.test-on-run-start-0', 'success'],
      ['operation.test.test-on-run-start-1', 'success'],
      ['operation.test.test-on-run-start-2', 'error'],
      ['operation.test.test-on-run-start-3', 'skipped'],
      ['model.test.my_model', 'skipped'],
      ['operation.test.test-on-run-end-0', 'success'],
    ]);
    expect(out.results[2]!.message).toContain(missingHookTable(engine));
    expect(out.stdout).toMatch(/3 of 4 ERROR hook: test\.on-run-start\.2 \.+ \[ERROR in/);
    expect(out.stdout).not.toContain('4 of 4 START hook');
    // The skip line names the relation in its schema.
    expect(out.stdout).toMatch(engine === 'postgres' ? /SKIP relation public\.my_model/ : /SKIP relation main\.my_model/);
    expect(out.stdout).toContain('test.on-run-start.2 failed, error:');
    expect(out.stdout).toContain(missingHookTable(engine));
    expect(out.stdout).toContain('PASS=3 WARN=0 ERROR=1 SKIP=2 TOTAL=6');
    expect(out.stdout).toContain('5 project hooks, 1 view model');
    // The fourth hook never ran, the model was never built; on-run-end saw the skipped model.
    expect(p.relationType('my_hook_table')).toBeUndefined();
    expect(p.relationType('my_model')).toBeUndefined();
    expect(p.rows('end_audit')).toEqual([{ n: 1, status: 'skipped' }]);
  });
});

describeEachEngine('a failing on-run-end hook fails the command; the models stand (Test__ModelPass__EndHookFail)', (engine) => {
  it('the model is built, the hook after the failing one is skipped, exit 1', () => {
    const p = conformanceProject({
      'dbt_project.yml': `name: test\nversion: '1.0'\nprofile: default
on-run-end:
  - "create table {{ target.schema }}.my_hook_table ( id int )"
  - "drop table {{ target.schema }}.my_hook_table"
  - "insert into {{ target.schema }}.my_hook_table (id) values (1, 2, 3)"
  - "create table {{ target.schema }}.my_hook_table ( id int )"
`,
      'models/my_model.sql': 'select 1 as id\n',
    }, 'test', { engine });
    const out = p.dbt(['run']);
    expect(out.code).toBe(1);
    expect(out.results.map((r) => [r.unique_id, r.status])).toEqual([
      ['model.test.my_model', 'success'],
      ['operation.test.test-on-run-end-0', 'success'],
      ['operation.test.test-on-run-end-1', 'success'],
      ['operation.test.test-on-run-end-2', 'error'],
      ['operation.test.test-on-run-end-3', 'skipped'],
    ]);
    expect(out.results[3]!.message).toContain(missingHookTable(engine));
    expect(p.rows('my_model')).toEqual([{ id: 1 }]);
    expect(out.stdout).toContain('PASS=3 WARN=0 ERROR=1 SKIP=1 TOTAL=5');
    expect(out.stdout).toContain('4 project hooks, 1 view model');
    expect(out.stdout).toContain('test.on-run-end.2 failed, error:');
    expect(p.relationType('my_hook_table')).toBeUndefined();
  });
});

describeEachEngine('project hooks with an audit table, results and ref(), on build and test', (engine) => {
  const files = {
    'dbt_project.yml': `name: test\nversion: '1.0'\nprofile: default
on-run-start: "create table if not exists run_audit (phase text, unique_id text, status text, n int)"
on-run-end:
  - "{% for r in results %}insert into run_audit values ('end', '{{ r.node.unique_id }}', '{{ r.status }}', null);{% endfor %}"
  - "insert into run_audit select 'rows', 'model.test.orders', 'counted', count(*) from {{ ref('orders') }}"
`,
    'seeds/raw_orders.csv': 'id,amount\n1,10\n2,20\n',
    'models/orders.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('raw_orders') }}\n",
    'models/schema.yml': 'models:\n  - name: orders\n    columns:\n      - name: id\n        data_tests: [unique, not_null]\n',
  };

  it('build: every result is recorded by the end hook, with its status, and ref() reads the built model', () => {
    const p = conformanceProject(files, 'test', { engine });
    const out = p.dbt(['build']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(p.rows('run_audit', 'phase, unique_id')).toEqual([
      { phase: 'end', unique_id: 'model.test.orders', status: 'success', n: null },
      { phase: 'end', unique_id: 'seed.test.raw_orders', status: 'success', n: null },
      { phase: 'end', unique_id: 'test.test.not_null_orders_id.4e9dc7a9a0', status: 'pass', n: null },
      { phase: 'end', unique_id: 'test.test.unique_orders_id.4a1ea5ef65', status: 'pass', n: null },
      { phase: 'rows', unique_id: 'model.test.orders', status: 'counted', n: 2 },
    ].map((r) => (r.unique_id.startsWith('test.') ? expect.objectContaining({ phase: 'end', status: 'pass' }) : r)));
  });

  it('test runs the hooks too; an empty selection runs none (Test__SelectorEmpty__NoHooksRan)', () => {
    const p = conformanceProject(files, 'test', { engine });
    expect(p.dbt(['build']).code).toBe(0);
    p.exec('delete from run_audit');
    const tested = p.dbt(['test']);
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
    expect(p.rows('run_audit', 'phase, unique_id').map((r) => [r.phase, r.status])).toEqual([['end', 'pass'], ['end', 'pass'], ['rows', 'counted']]);
    p.exec('drop table run_audit');
    p.dbt(['run', '--select', 'tag:no_such_tag']);
    expect(p.relationType('run_audit')).toBeUndefined();
  });
});
