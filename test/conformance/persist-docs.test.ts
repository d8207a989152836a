import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt's persist_docs (dbt-tests-adapter persist_docs/): with `relation: true` the model's yml
 * description becomes the relation's comment, with `columns: true` each yml column's description its
 * column's, written after the build in its transaction (dbt-postgres's COMMENT ON, dollar-quoted). yml
 * columns the relation lacks are left out; descriptions are persisted as rendered (Jinja in yml). SQLite has no comments: dbt-sqlite ignores the config, and so
 * does mini-dbt there (the models build, nothing else happens).
 */
const files: Record<string, string> = {
  'dbt_project.yml': `name: persist_docs
version: '1.0'
profile: default
models:
  persist_docs:
    +persist_docs:
      relation: true
      columns: true
    no_docs:
      +persist_docs:
        relation: false
        columns: false
`,
  'models/table_model.sql': "{{ config(materialized='table') }}\nselect 1 as id, 'Joe' as name\n",
  'models/view_model.sql': "{{ config(materialized='view') }}\nselect id, name from {{ ref('table_model') }}\n",
  'models/incremental_model.sql': "{{ config(materialized='incremental', unique_key='id') }}\nselect 1 as id, 'Joe' as name\n",
  'models/no_docs.sql': "{{ config(materialized='table') }}\nselect 1 as id\n",
  'models/schema.yml': `models:
  - name: table_model
    description: "Table model description with a quote: it's \\"quoted\\""
    columns:
      - name: id
        description: id Column description
      - name: name
        description: "Some stuff here and then a call to {{ 'rendered' | upper }}"
      - name: ghost
        description: not in the table, left out
  - name: view_model
    description: View model description
    columns:
      - name: id
        description: the view's id
  - name: incremental_model
    description: Incremental model description
    columns:
      - name: name
        description: the name
  - name: no_docs
    description: never persisted
    columns:
      - name: id
        description: nor this
`,
};

describeEachEngine('persist_docs', (engine) => {
  it('writes relation and column comments on PostgreSQL after each build, and is ignored on SQLite', () => {
    const p = conformanceProject(files, 'persist_docs', { engine });
    for (const pass of [1, 2]) {
      const run = p.dbt(['run']);
      expect(run.code, `run ${pass}: ${run.stdout}${run.stderr}`).toBe(0);
    }
    expect(p.rows('table_model')).toEqual([{ id: 1, name: 'Joe' }]);
    expect(p.rows('incremental_model')).toEqual([{ id: 1, name: 'Joe' }]);
    if (engine === 'sqlite') return;
    const relationComment = (name: string) => p.query(`select obj_description(to_regclass('${name}'), 'pg_class') as c`)[0]!.c;
    const columnComment = (name: string, column: string) =>
      p.query(`select col_description(to_regclass('${name}'), a.attnum) as c from pg_attribute a where a.attrelid = to_regclass('${name}') and a.attname = '${column}'`)[0]!.c;
    expect(relationComment('table_model')).toBe('Table model description with a quote: it\'s "quoted"');
    expect(columnComment('table_model', 'id')).toBe('id Column description');
    expect(columnComment('table_model', 'name')).toBe('Some stuff here and then a call to RENDERED');
    expect(relationComment('view_model')).toBe('View model description');
    expect(columnComment('view_model', 'id')).toBe("the view's id");
    expect(columnComment('view_model', 'name')).toBeNull();
    expect(relationComment('incremental_model')).toBe('Incremental model description');
    expect(columnComment('incremental_model', 'name')).toBe('the name');
    expect(relationComment('no_docs')).toBeNull();
    expect(columnComment('no_docs', 'id')).toBeNull();
  });

  it('a description holding dbt\'s dollar-quote fails its model (dbt\'s words) on PostgreSQL, leaving no relation', () => {
    const p = conformanceProject({
      ...files,
      'models/schema.yml': 'models:\n  - name: table_model\n    description: "breaks $dbt_comment_literal_block$ out"\n',
    }, 'persist_docs', { engine });
    const run = p.dbt(['run', '-s', 'table_model']);
    if (engine === 'sqlite') {
      expect(run.code).toBe(0);
      return;
    }
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain('The string $dbt_comment_literal_block$ is not allowed in comments.');
    expect(p.relationType('table_model')).toBeUndefined();
  });
});
