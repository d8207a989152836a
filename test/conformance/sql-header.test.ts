import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt's sql_header (dbt-core tests/functional/configs, dbt-tests-adapter's sql_header model): SQL the
 * materialization emits above `create ... as`, so it runs on the same connection just before the
 * relation is created. Set by config (a model's config(), the project file) or by set_sql_header's
 * `{% call %}` block. It is the project's own config, like a hook: it may hold several statements.
 */
describeEachEngine('sql_header', (engine) => {
  const files = {
    'seeds/header_log.csv': 'id,note\n0,seed\n',
    // set_sql_header: a temp table the model's SELECT reads, which exists only on the build's connection after the header ran.
    'models/from_header.sql': `{{ config(materialized='table') }}
{% call set_sql_header(config) %}
create temp table if not exists header_answer as select 42 as answer;
{% endcall %}
select answer from header_answer
`,
    // Two statements in one header, on a view and an incremental model: each run writes its rows once per build.
    'models/header_view.sql': `{{ config(materialized='view', sql_header="insert into header_log (id, note) values (1, 'view'); insert into header_log (id, note) values (2, 'view again')") }}
select 1 as id
`,
    'models/header_incremental.sql': `{{ config(materialized='incremental', unique_key='id') }}
select 1 as id
`,
    'models/no_header.sql': 'select 1 as id\n',
    'dbt_project.yml': `name: sql_header
version: '1.0'
profile: default
models:
  sql_header:
    header_incremental:
      +sql_header: "insert into header_log (id, note) values (3, 'incremental')"
`,
  };

  it('runs before each create, in the build, and a SELECT can read what it made', () => {
    const p = conformanceProject(files, 'sql_header', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    const first = p.dbt(['run']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(p.rows('from_header')).toEqual([{ answer: 42 }]);
    expect(p.rows('header_log', 'id').map((r) => Number(r.id))).toEqual([0, 1, 2, 3]);
    // The second run: the incremental model's header runs before its staged rows are created, the view's before it is replaced.
    const second = p.dbt(['run']);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(p.rows('header_log', 'id, note').map((r) => `${String(r.id)} ${String(r.note)}`)).toEqual(['0 seed', '1 view', '1 view', '2 view again', '2 view again', '3 incremental', '3 incremental']);
    expect(p.rows('from_header')).toEqual([{ answer: 42 }]);
  });

  it('is shown in the compiled plan right before the create, and a failing header fails its model alone, leaving nothing of it', () => {
    const p = conformanceProject({
      ...files,
      'models/bad_header.sql': "{{ config(materialized='table', sql_header=\"insert into header_log (id, note) values (9, 'bad'); insert into no_such_table values (1)\") }}\nselect 1 as id\n",
    }, 'sql_header', { engine });
    const compiled = p.dbt(['compile', '-s', 'header_view']);
    expect(compiled.stdout).toMatch(/-- sql-header\ninsert into header_log \(id, note\) values \(1, 'view'\); insert into header_log \(id, note\) values \(2, 'view again'\);?\n[\s\S]*create view/);
    expect(p.dbt(['seed']).code).toBe(0);
    const run = p.dbt(['run']);
    expect(run.code).toBe(1);
    expect(run.statuses['model.sql_header.bad_header']).toBe('error');
    expect(run.statuses['model.sql_header.no_header']).toBe('success');
    expect(p.relationType('bad_header')).toBeUndefined();
    // The header's first statement ran in the model's transaction, and was rolled back with it.
    expect(p.rows('header_log', 'id').map((r) => Number(r.id))).toEqual([0, 1, 2, 3]);
  });
});

describeEachEngine('sql_header on a snapshot', (engine) => {
  it('runs before the snapshot table is created and before each staging of changes', () => {
    const p = conformanceProject({
      'seeds/header_log.csv': 'id,note\n0,seed\n',
      'seeds/people.csv': 'id,name,updated_at\n1,ann,2026-01-01 00:00:00\n',
      'snapshots/people_snapshot.sql': `{% snapshot people_snapshot %}
{{ config(unique_key='id', strategy='timestamp', updated_at='updated_at', sql_header="insert into header_log (id, note) values (5, 'snapshot')") }}
select * from {{ ref('people') }}
{% endsnapshot %}
`,
    }, 'sql_header', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    expect(p.dbt(['snapshot']).code).toBe(0);
    expect(p.dbt(['snapshot']).code).toBe(0);
    expect(p.rows('header_log', 'id').map((r) => Number(r.id))).toEqual([0, 5, 5]);
    expect(p.count('people_snapshot')).toBe(1);
  });
});
