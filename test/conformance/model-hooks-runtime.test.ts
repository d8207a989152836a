import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A model's hooks are rendered when they run, as dbt's materializations render them
 * (run_hooks(pre_hooks) before the main statement, run_hooks(post_hooks) after the relation is
 * built): a post-hook's template may read or write the table its model has just built, on the
 * first build too (dbt_project_evaluator's post-hooks insert into {{ this }} through
 * `call statement`). `compile` renders no hook, as dbt's compile does not.
 */
const CALL_STATEMENT = `post_hook="{% call statement('add_99') %}insert into {{ this }} (id) values (99){% endcall %}"`;

const COUNT_MACRO = `{% macro count_into_audit(relation, said) %}
  {% set n = run_query('select count(*) from ' ~ relation).columns[0].values()[0] %}
  insert into hook_audit (said, n) values ('{{ said }}', {{ n }})
{% endmacro %}
`;

describeEachEngine('model hooks rendered when they run', (engine) => {
  it('a post-hook inserting into {{ this }} through call statement works on the first build (table and incremental), and on a rebuild', () => {
    const p = conformanceProject({
      'models/t.sql': `{{ config(materialized='table', ${CALL_STATEMENT}) }}\nselect 1 as id union all select 2 as id\n`,
      'models/inc.sql': `{{ config(materialized='incremental', ${CALL_STATEMENT}) }}\nselect 1 as id\n`,
    }, 'hooks_at_run', { engine });
    // compile renders no hook: it needs no table, and writes nothing.
    const compiled = p.dbt(['compile']);
    expect(compiled.code, compiled.stdout + compiled.stderr).toBe(0);
    expect(p.relationType('t')).toBeUndefined();
    const first = p.dbt(['run']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(p.rows('t', 'id').map((r) => Number(r.id))).toEqual([1, 2, 99]);
    expect(p.rows('inc', 'id').map((r) => Number(r.id))).toEqual([1, 99]);
    const second = p.dbt(['run']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(p.rows('t', 'id').map((r) => Number(r.id))).toEqual([1, 2, 99]);
    expect(p.rows('inc', 'id').map((r) => Number(r.id))).toEqual([1, 1, 99, 99]);
  });

  it('a post-hook whose rendering reads the just-built table through run_query (inline, and in a macro) sees its rows', () => {
    const p = conformanceProject({
      'macros/count_into_audit.sql': COUNT_MACRO,
      'models/m.sql': `{{ config(materialized='table', post_hook=[
  "{% if execute %}{% set n = run_query('select count(*) from ' ~ this).columns[0].values()[0] %}{{ log('rows in m: ' ~ n, info=true) }}{% endif %}select 1",
  "{{ count_into_audit(this, 'macro') }}",
]) }}
select 1 as id union all select 2 union all select 3
`,
    }, 'hooks_at_run', { engine });
    p.exec('create table hook_audit (said text, n integer)');
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('rows in m: 3');
    expect(p.rows('hook_audit')).toEqual([{ said: 'macro', n: 3 }]);
  });

  it('hooks of an incremental model see is_incremental() as its SQL did: false on the first build and a full refresh, true after', () => {
    const p = conformanceProject({
      'models/inc.sql': `{{ config(materialized='incremental',
  pre_hook="insert into hook_audit (said) values ('pre {{ is_incremental() }}')",
  post_hook="insert into hook_audit (said, n) select 'post {{ is_incremental() }}', count(*) from {{ this }}") }}
select 1 as id
`,
    }, 'hooks_at_run', { engine });
    p.exec('create table hook_audit (said text, n integer)');
    const said = () => p.rows('hook_audit', 'said').map((r) => `${String(r.said)}${r.n === null ? '' : ` ${Number(r.n)}`}`);
    expect(p.dbt(['run']).code).toBe(0);
    expect(said()).toEqual(['post False 1', 'pre False']);
    p.exec('delete from hook_audit');
    expect(p.dbt(['run']).code).toBe(0);
    expect(said()).toEqual(['post True 2', 'pre True']);
    p.exec('delete from hook_audit');
    expect(p.dbt(['run', '--full-refresh']).code).toBe(0);
    expect(said()).toEqual(['post False 1', 'pre False']);
  });

  it('a hook whose template fails when it runs fails its model, naming the model and the hook, and leaves the previous table as it was', () => {
    const p = conformanceProject({ 'models/m.sql': "{{ config(materialized='table') }}\nselect 1 as id union all select 2\n" }, 'hooks_at_run', { engine });
    expect(p.dbt(['run']).code).toBe(0);
    p.write('models/m.sql', `{{ config(materialized='table', post_hook="select 1 from {{ this }};\n{{ exceptions.raise_compiler_error('no rows may be added to ' ~ this.identifier) }}") }}
select 1 as id union all select 2 union all select 3
`);
    const failed = p.dbt(['run']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/models\/m\.sql#post_hook\[0\]:2:\d+: Compilation Error in model m \(models\/m\.sql\): no rows may be added to m\n.*> in post_hook\[0\] of model 'm', rendered as it ran/);
    expect(p.rows('m', 'id').map((r) => Number(r.id))).toEqual([1, 2]);
  });

  it("a seed's post-hook is rendered after the load too: its run_query reads the rows just loaded, on the first seed", () => {
    const p = conformanceProject({
      'dbt_project.yml': `name: hooks_at_run
version: '1.0'
profile: default
seeds:
  hooks_at_run:
    +post-hook: "{% set n = run_query('select count(*) from ' ~ this).columns[0].values()[0] %}insert into hook_audit (said, n) values ('seed', {{ n }})"
`,
      'seeds/people.csv': 'id,name\n1,a\n2,b\n',
    }, 'hooks_at_run', { engine });
    p.exec('create table hook_audit (said text, n integer)');
    const seed = p.dbt(['seed']);
    expect(seed.code, seed.stdout + seed.stderr).toBe(0);
    expect(p.rows('hook_audit')).toEqual([{ said: 'seed', n: 2 }]);
  });
});
