import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * Conformance with dbt: upper-case model names, an empty model file and a
 * disabled model (dbt-tests-adapter simple_copy/test_copy_uppercase.py:
 * nine model files, seven results), and aliases (aliases/test_aliases.py:
 * an alias from config(), from dbt_project.yml, overridden in the model,
 * ref() of an aliased model, and the same alias in two schemas). Our own
 * fixtures, written to the shape of dbt's cases.
 */

const SEED = 'id,first_name,email\n1,Larry,lking0@example.com\n2,Larry,lperkins1@example.com\n3,Anna,amontgomery2@example.com\n';

describeEachEngine('upper-case names, an empty model and a disabled one (BaseSimpleCopyUppercase)', (engine) => {
  it('run builds the six models that have SQL; the empty and the disabled file are parsed but never run', () => {
    const p = conformanceProject({
      'seeds/seed.csv': SEED,
      'models/INCREMENTAL.sql': "{{ config(materialized='incremental') }}\nselect * from {{ ref('seed') }}\n{% if is_incremental() %}\n  where id > (select max(id) from {{ this }})\n{% endif %}\n",
      'models/MATERIALIZED.sql': "{{ config(materialized='table') }}\n-- a unicode character: å\nselect * from {{ ref('seed') }}\n",
      'models/VIEW_MODEL.sql': "{{ config(materialized='view') }}\nselect * from {{ ref('seed') }}\n",
      'models/DISABLED.sql': "{{ config(materialized='view', enabled=False) }}\nselect * from {{ ref('seed') }}\n",
      'models/EMPTY.sql': '   \n\n',
      'models/GET_AND_REF.sql': "{%- do adapter.get_relation(database=target.database, schema=target.schema, identifier='MATERIALIZED') -%}\nselect * from {{ ref('MATERIALIZED') }}\n",
      'models/COMPOUND_SORT.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('seed') }}\n",
      'models/INTERLEAVED_SORT.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('seed') }}\n",
    }, 'upper', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(Object.keys(run.statuses).sort()).toEqual([
      'model.upper.COMPOUND_SORT', 'model.upper.GET_AND_REF', 'model.upper.INCREMENTAL', 'model.upper.INTERLEAVED_SORT',
      'model.upper.MATERIALIZED', 'model.upper.VIEW_MODEL',
    ].sort());
    for (const relation of ['VIEW_MODEL', 'INCREMENTAL', 'MATERIALIZED', 'GET_AND_REF']) expect(p.difference('seed', relation), relation).toBe(0);
    expect(p.relationType('EMPTY')).toBeUndefined();
    expect(p.relationType('DISABLED')).toBeUndefined();
    // Selected by name, the empty model is still not run: dbt's NothingToDo (a warning, exit 0).
    const empty = p.dbt(['run', '--select', 'EMPTY']);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('Nothing to do');
    expect(p.relationType('EMPTY')).toBeUndefined();
    // ls lists it, as dbt's list does (empty nodes included).
    const ls = p.dbt(['ls', '--resource-type', 'model']);
    expect(ls.stdout).toContain('upper.EMPTY');
    // A second run appends nothing to the incremental model.
    expect(p.dbt(['run']).code).toBe(0);
    expect(p.count('INCREMENTAL')).toBe(3);
  });
});

describeEachEngine('aliases (BaseAliases, BaseAliasErrors, BaseSameAliasDifferentSchemas)', (engine) => {
  const TEST = "{% test expect_value(model, field, value) %}\nselect * from {{ model }} where {{ field }} != '{{ value }}'\n{% endtest %}\n";
  const expectValue = (model: string, value: string) => `  - name: ${model}\n    data_tests:\n      - expect_value:\n          field: tablename\n          value: ${value}\n`;

  it("each model is built under its alias and `this` names it: from config(), from dbt_project.yml, overridden in the model, and ref() finds it", () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: test\nversion: '1.0'\nprofile: default\nmodels:\n  test:\n    alias_in_project:\n      alias: project_alias\n    alias_in_project_with_override:\n      alias: project_alias\n",
      'macros/expect_value.sql': TEST,
      'models/foo_alias.sql': "{{ config(alias='foo', materialized='table') }}\nselect '{{ this.name }}' as tablename\n",
      'models/alias_in_project.sql': "select '{{ this.name }}' as tablename\n",
      'models/alias_in_project_with_override.sql': "{{ config(alias='override_alias') }}\nselect '{{ this.name }}' as tablename\n",
      'models/ref_foo_alias.sql': "{{ config(materialized='table') }}\nwith trigger_ref as (select * from {{ ref('foo_alias') }})\nselect '{{ this.name }}' as tablename\n",
      'models/schema.yml': `version: 2\nmodels:\n${expectValue('foo_alias', 'foo')}${expectValue('ref_foo_alias', 'ref_foo_alias')}${expectValue('alias_in_project', 'project_alias')}${expectValue('alias_in_project_with_override', 'override_alias')}`,
    }, 'test', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(Object.keys(run.statuses)).toHaveLength(4);
    expect(p.rows('foo')).toEqual([{ tablename: 'foo' }]);
    expect(p.rows('project_alias')).toEqual([{ tablename: 'project_alias' }]);
    expect(p.rows('override_alias')).toEqual([{ tablename: 'override_alias' }]);
    expect(p.relationType('foo_alias')).toBeUndefined();
    const test = p.dbt(['test']);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(Object.values(test.statuses)).toEqual(['pass', 'pass', 'pass', 'pass']);
  });

  it('two models with one alias in one schema are refused before anything runs, in dbt\'s words', () => {
    const p = conformanceProject({
      'models/model_a.sql': "{{ config(alias='duped_alias') }}\nselect 1 as id\n",
      'models/model_b.sql': "{{ config(alias='duped_alias') }}\nselect 2 as id\n",
    }, 'dupes', { engine });
    const run = p.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('found two resources with the database representation');
    expect(run.stderr).toContain('identical database representations');
    expect(p.relationType('duped_alias')).toBeUndefined();
  });

  it('the same alias in two schemas builds two relations', () => {
    // On SQLite, schemas come with a profile (without one every relation is in main, and these would collide).
    const profile = engine === 'sqlite'
      ? { 'profiles.yml': 'default:\n  target: dev\n  outputs:\n    dev:\n      type: sqlite\n      threads: 1\n      database: warehouse.db\n      schema: main\n      schemas_and_paths:\n        main: warehouse.db\n      schema_directory: schemas\n' }
      : {};
    const p = conformanceProject({
      ...profile,
      'models/model_a.sql': "{{ config(alias='duped_alias', materialized='table') }}\nselect 1 as id\n",
      'models/model_b.sql': "{{ config(alias='duped_alias', schema='schema_b', materialized='table') }}\nselect 2 as id\n",
      'models/model_c.sql': "{{ config(alias='duped_alias', schema='schema_c', materialized='table') }}\nselect 3 as id\n",
    }, 'schemas', { engine });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(Object.values(run.statuses)).toEqual(['success', 'success', 'success']);
    expect(run.stdout).toMatch(/OK created sql table model \S+_schema_b\.duped_alias/);
    expect(run.stdout).toMatch(/OK created sql table model \S+_schema_c\.duped_alias/);
  });
});
