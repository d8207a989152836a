import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 13): `--empty` (dbt 1.8+). Modelled on
 * dbt-tests-adapter empty/test_empty.py (BaseTestEmpty,
 * BaseTestEmptyInlineSourceRef, MetadataWithEmptyFlag, BaseTestEmptySeedFlag)
 * and dbt-adapters' BaseRelation (refs and sources render limited to zero
 * rows; `.render()` gives the unlimited relation; `this` is never limited).
 * Each case: a normal run, then an --empty run, and the rows and columns the
 * warehouse then holds.
 */

const SOURCES = `sources:
  - name: seed_sources
    schema: "{{ target.schema }}"
    tables:
      - name: raw_source
`;

const projectOn = (engine: EngineName) => (files: Record<string, string> = {}) => conformanceProject({
  'seeds/raw_source.csv': 'id\n3\n',
  'models/sources.yml': SOURCES,
  'models/model_input.sql': 'select 1 as id\n',
  'models/ephemeral_model_input.sql': "{{ config(materialized='ephemeral') }}\nselect 2 as id\n",
  'models/model.sql': "select *\nfrom {{ ref('model_input') }}\nunion all\nselect *\nfrom {{ ref('ephemeral_model_input') }}\nunion all\nselect *\nfrom {{ source('seed_sources', 'raw_source') }}\n",
  ...files,
}, 'empty', { engine });

describeEachEngine('run --empty: refs and sources (ephemeral refs too) read no rows, so relations are built with their columns and no rows (BaseTestEmpty)', (engine) => {
  const project = projectOn(engine);
  it('a plain run gives 3 rows (one per input); run --empty then gives 0 rows and the same column', async () => {
    const p = project();
    await succeedingRun(p.dir, { command: 'seed' });
    await succeedingRun(p.dir);
    expect(p.rows('model', 'id')).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const empty = p.dbt(['run', '--empty']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(empty.statuses).toEqual({ 'model.empty.model_input': 'success', 'model.empty.model': 'success' });
    expect(p.count('model')).toBe(0);
    expect(p.columns('model')).toEqual(['id']);
    // A model with no ref or source has nothing to limit: it still has its row.
    expect(p.rows('model_input')).toEqual([{ id: 1 }]);
  });

  it('a table model built from a source under --empty exists with every column of the source and no rows', async () => {
    const p = project({
      'seeds/wide.csv': 'id,name,amount\n1,a,2.5\n2,b,3.5\n',
      'models/sources.yml': `${SOURCES}      - name: wide\n`,
      'models/wide_copy.sql': "{{ config(materialized='table') }}\nselect id, name, amount * 2 as doubled from {{ source('seed_sources', 'wide') }}\n",
    });
    await succeedingRun(p.dir, { command: 'seed' });
    const empty = p.dbt(['run', '--empty', '-s', 'wide_copy']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(p.relationType('wide_copy')).toBe('table');
    expect(p.columns('wide_copy')).toEqual(['id', 'name', 'doubled']);
    expect(p.count('wide_copy')).toBe(0);
    expect(p.count('wide')).toBe(2); // the seed itself is untouched
  });

  it('build --empty builds the models empty and their tests read no rows (a test failing on real rows passes)', () => {
    const p = project({
      'models/schema.yml': 'version: 2\nmodels:\n  - name: model\n    columns:\n      - name: id\n        data_tests:\n          - accepted_values:\n              values: [1, 2]\n              quote: false\n',
    });
    const full = p.dbt(['build']);
    expect(full.code).toBe(1); // id 3 (from the source) is not accepted
    expect(p.count('model')).toBe(3);
    const empty = p.dbt(['build', '--empty', '--exclude', 'raw_source']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(p.count('model')).toBe(0);
    expect(Object.entries(empty.statuses).filter(([id]) => id.startsWith('test.')).map(([, s]) => s)).toEqual(['pass']);
  });
});

// SQLite only: on PostgreSQL a subquery in FROM needs an alias, so dbt renders the limited relation with its own
// (` _dbt_limit_subq_<name>`) and an alias written after it cannot follow; dbt-postgres does not run this test either.
describe('--empty keeps SQL that aliases or qualifies a relation working (BaseTestEmptyInlineSourceRef) [sqlite]', () => {
  const project = projectOn('sqlite');
  it('`from source(...) as raw_source` and a join on aliased refs build with 0 rows', async () => {
    const p = project({
      'models/inline.sql': "{{ config(materialized='table') }}\nselect * from {{ source('seed_sources', 'raw_source') }} as raw_source\n",
      'models/joined.sql': "{{ config(materialized='table') }}\nselect a.id, b.id as other_id\nfrom {{ ref('model_input') }} as a\njoin {{ source('seed_sources', 'raw_source') }} b on b.id > a.id\n",
    });
    await succeedingRun(p.dir, { command: 'seed' });
    await succeedingRun(p.dir);
    expect([p.count('inline'), p.count('joined')]).toEqual([1, 1]);
    const empty = p.dbt(['run', '--empty']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect([p.count('inline'), p.count('joined')]).toEqual([0, 0]);
    expect(p.columns('joined')).toEqual(['id', 'other_id']);
  });
});

describeEachEngine('what --empty does not limit: .render(), this, and metadata (MetadataWithEmptyFlag)', (engine) => {
  const project = projectOn(engine);
  it("ref('x').render() and source(...).render() read every row under --empty", async () => {
    const p = project({
      'models/rendered.sql': "{{ config(materialized='table') }}\nselect id from {{ ref('model_input').render() }}\nunion all\nselect id from {{ source('seed_sources', 'raw_source').render() }}\n",
    });
    await succeedingRun(p.dir, { command: 'seed' });
    await succeedingRun(p.dir);
    const empty = p.dbt(['run', '--empty']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(p.count('model')).toBe(0);
    expect(p.rows('rendered', 'id')).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('`this` is not limited: an incremental run under --empty reads its own table whole, and adds no rows from its empty refs', async () => {
    const p = project({
      'models/inc.sql': `{{ config(materialized='incremental') }}
select id, {% if is_incremental() %}(select count(*) from {{ this }}){% else %}0{% endif %} as rows_before
from {{ source('seed_sources', 'raw_source') }}
union all
select 100 + {% if is_incremental() %}(select count(*) from {{ this }}){% else %}0{% endif %}, -1
`,
    });
    await succeedingRun(p.dir, { command: 'seed' });
    await succeedingRun(p.dir, { select: ['inc'] });
    expect(p.rows('inc', 'id')).toEqual([{ id: 3, rows_before: 0 }, { id: 100, rows_before: -1 }]);
    const empty = p.dbt(['run', '--empty', '-s', 'inc']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    // The source row is not read; the row built from `this` alone is, and counts the 2 rows already there.
    expect(p.rows('inc', 'id')).toEqual([{ id: 3, rows_before: 0 }, { id: 100, rows_before: -1 }, { id: 102, rows_before: -1 }]);
  });

  it('adapter.get_columns_in_relation(ref(...)) answers the columns under --empty (dbt-adapters#213: no limit in metadata queries)', async () => {
    const p = conformanceProject({
      'seeds/my_seed.csv': 'my_id,my_value\n1,a\n2,b\n3,c\n',
      'models/copy_columns.sql': `{{ config(materialized="table") }}
{% set columns = adapter.get_columns_in_relation(ref("my_seed")) %}
select {% for c in columns %}{{ c.name }} as copy_{{ c.name }}{% if not loop.last %}, {% endif %}{% endfor %}
from {{ ref("my_seed") }}
`,
    }, 'empty', { engine });
    await succeedingRun(p.dir, { command: 'seed' });
    const empty = p.dbt(['run', '--empty', '--select', 'copy_columns']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(p.columns('copy_columns')).toEqual(['copy_my_id', 'copy_my_value']);
    expect(p.count('copy_columns')).toBe(0);
  });
});

describeEachEngine('compile --empty shows the limited relations without building anything', (engine) => {
  const project = projectOn(engine);
  it('compile --empty exits 0 and the warehouse keeps the rows of the last real run', async () => {
    const p = project();
    await succeedingRun(p.dir, { command: 'seed' });
    await succeedingRun(p.dir);
    const compile = p.dbt(['compile', '--empty']);
    expect(compile.code, compile.stdout + compile.stderr).toBe(0);
    expect(p.count('model')).toBe(3);
  });
});

// dbt 1.12 (BaseTestEmptySeedFlag): `seed --empty` creates each seed table with its inferred column types and no
// rows, and `build --empty` loads seeds that way too.
describeEachEngine('seed --empty (dbt 1.12, BaseTestEmptySeedFlag)', (engine) => {
  const project = projectOn(engine);
  const seedFiles = { 'seeds/people.csv': 'id,name,score\n1,Ann,1.5\n2,Bo,2.5\n' };

  it('seed --empty creates the seed table with its columns and 0 rows; a later seed --full-refresh loads its rows', async () => {
    const p = conformanceProject(seedFiles, 'empty_seed', { engine });
    const empty = p.dbt(['seed', '--empty']);
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(p.count('people')).toBe(0);
    expect(p.columns('people')).toEqual(['id', 'name', 'score']);
    await succeedingRun(p.dir, { command: 'seed', fullRefresh: true });
    expect(p.count('people')).toBe(2);
  });

  it('build --empty leaves the seed table with 0 rows', () => {
    const p = conformanceProject({ ...seedFiles, 'models/m.sql': "select * from {{ ref('people') }}\n" }, 'empty_seed', { engine });
    const build = p.dbt(['build', '--empty']);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(p.count('people')).toBe(0);
    expect(p.count('m')).toBe(0);
  });
});
