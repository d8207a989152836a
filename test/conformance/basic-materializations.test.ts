import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject, type Invocation } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';
import { run as apiRun, type RunOptions } from '../../src/api/run.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 13): the simple materializations. Modelled on
 * dbt-tests-adapter basic/test_base.py (BaseSimpleMaterializations),
 * basic/test_incremental.py (BaseIncremental, BaseIncrementalNotSchemaChange),
 * basic/test_table_materialization.py, basic/test_adapter_methods.py and
 * basic/test_empty.py (BaseEmpty: a project with no nodes), and
 * dbt-core's tests/functional/materializations/test_runtime_materialization.py.
 * Each case: a small project, the CLI commands dbt's test runs, then the
 * relations and rows the warehouse holds.
 */

// The seed rows follow dbt's fixture (basic/files.py): facts, not code.
const BASE_ROWS = [
  '1,Easton,1981-05-20T06:46:51', '2,Lillian,1978-09-03T18:10:33', '3,Jeremiah,1982-03-11T03:59:51',
  '4,Nolan,1976-05-06T20:21:35', '5,Hannah,1982-06-23T05:41:26', '6,Eleanor,1991-08-10T23:12:21',
  '7,Lily,1971-03-29T14:58:02', '8,Jonathan,1988-02-26T02:55:24', '9,Adrian,1994-02-09T13:14:23',
  '10,Nora,1976-03-01T16:51:39',
];
const ADDED_ROWS = [
  '11,Mateo,2014-09-07T17:04:27', '12,Julian,2000-02-04T11:48:30', '13,Gabriel,2001-07-10T07:32:52',
  '14,Isaac,2002-11-24T03:22:28', '15,Levi,2009-11-15T11:57:15', '16,Elizabeth,2005-04-09T03:50:11',
  '17,Grayson,2019-08-06T19:28:17', '18,Dylan,2014-03-01T11:50:41', '19,Jayden,2009-06-06T07:12:49',
  '20,Luke,2003-12-05T21:42:18',
];
/** `make` once, on first use: a project and the commands several cases read the results of. */
const shared = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};

const csv = (rows: readonly string[]) => `id,name,some_date\n${rows.join('\n')}\n`;

// A source whose identifier follows a var, as dbt's schema_base_yml does.
const SOURCES = `version: 2
sources:
  - name: raw
    schema: "{{ target.schema }}"
    tables:
      - name: seed
        identifier: "{{ var('seed_name', 'base') }}"
`;
const FROM_SOURCE = "select * from {{ source('raw', 'seed') }}\n";

/**
 * A run in process through the API the CLI calls, for the cases about what a run builds (not about the CLI):
 * its exit code and each node's status, as the CLI's run_results.json would give them.
 */
async function runInProcess(p: ConformanceProject, options: Partial<RunOptions> = {}): Promise<{ code: number; statuses: Record<string, string>; messages: string }> {
  const r = await apiRun({ projectDir: p.dir, writeArtifacts: false, ...options });
  return { code: r.exitCode, statuses: Object.fromEntries(r.results.map((n) => [n.uniqueId, n.status])), messages: r.results.map((n) => `${n.uniqueId}: ${n.status} ${n.message ?? ''}`).join('\n') };
}

describeEachEngine('simple materializations: seed, run, and a model switched between materializations (BaseSimpleMaterializations)', (engine) => {
  const files = {
    'seeds/base.csv': csv(BASE_ROWS),
    'models/schema.yml': SOURCES,
    'models/view_model.sql': `{{ config(materialized="view") }}\n${FROM_SOURCE}`,
    'models/table_model.sql': `{{ config(materialized="table") }}\n${FROM_SOURCE}`,
    'models/swappable.sql': `{{ config(materialized=var("materialized_var", "table")) }}\n${FROM_SOURCE}`,
  };
  // Seeded and run once: the first case checks that seed and run, the others start from a copy of what they built.
  let built: ConformanceProject;
  let builtSeed: Invocation;
  let builtRun: Invocation;
  beforeAll(() => {
    built = conformanceProject(files, 'base', { engine });
    builtSeed = built.dbt(['seed']);
    builtRun = built.dbt(['run']);
  });

  it('seed loads 10 rows; run builds the three models as their configs say, each equal to the seed', () => {
    const p = built;
    const seed = builtSeed;
    expect(seed.code, seed.stdout + seed.stderr).toBe(0);
    expect(seed.statuses).toEqual({ 'seed.base.base': 'success' });
    expect(p.count('base')).toBe(10);

    const run = builtRun;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.base.view_model': 'success', 'model.base.table_model': 'success', 'model.base.swappable': 'success' });
    expect(['base', 'view_model', 'table_model', 'swappable'].map((r) => p.relationType(r))).toEqual(['table', 'view', 'table', 'table']);
    for (const r of ['view_model', 'table_model', 'swappable']) expect(p.difference('base', r), r).toBe(0);
  });

  it('a second run rebuilds the same relations with the same rows (nothing is appended or lost)', async () => {
    const p = built.copy();
    const first = Object.fromEntries(['view_model', 'table_model', 'swappable'].map((r) => [r, p.rows(r, 'id')]));
    const again = await runInProcess(p);
    expect(again.code, again.messages).toBe(0);
    expect(Object.values(again.statuses)).toEqual(['success', 'success', 'success']);
    for (const r of ['view_model', 'table_model', 'swappable']) {
      expect(p.rows(r, 'id'), r).toEqual(first[r]);
      expect(p.count(r), r).toBe(10);
    }
    expect(['view_model', 'table_model', 'swappable'].map((r) => p.relationType(r))).toEqual(['view', 'table', 'table']);
  });

  it('switching the model table -> view -> incremental -> view replaces the relation each time, keeping its rows', async () => {
    const p = built.copy();
    expect(p.relationType('swappable')).toBe('table');

    for (const [materialized, type] of [['view', 'view'], ['incremental', 'table'], ['view', 'view'], ['table', 'table']] as const) {
      const r = await runInProcess(p, { select: ['swappable'], vars: { materialized_var: materialized } });
      expect(r.code, `${materialized}: ${r.messages}`).toBe(0);
      expect(r.statuses, materialized).toEqual({ 'model.base.swappable': 'success' });
      expect(p.relationType('swappable'), materialized).toBe(type);
      expect(p.difference('base', 'swappable'), materialized).toBe(0);
      // The other models are not selected and stay as they were.
      expect([p.relationType('view_model'), p.relationType('table_model')]).toEqual(['view', 'table']);
    }
  });

  it('docs generate writes target/catalog.json listing 4 nodes and 1 source, with their columns in order (BaseDocsGenerate checks the catalog)', () => {
    const p = built.copy();
    const docs = p.dbt(['docs', 'generate']);
    expect(docs.code, docs.stdout + docs.stderr).toBe(0);
    type Table = { metadata: { type: string; schema: string; name: string }; columns: Record<string, { index: number; name: string }> };
    const catalog = JSON.parse(readFileSync(join(p.dir, 'target/catalog.json'), 'utf8')) as { metadata: { dbt_schema_version: string }; nodes: Record<string, Table>; sources: Record<string, Table>; errors: unknown };
    expect(catalog.metadata.dbt_schema_version).toBe('https://schemas.getdbt.com/dbt/catalog/v1.json');
    expect(Object.keys(catalog.nodes).sort()).toEqual(['model.base.swappable', 'model.base.table_model', 'model.base.view_model', 'seed.base.base']);
    expect(Object.keys(catalog.sources)).toEqual(['source.base.raw.seed']);
    expect(catalog.nodes['model.base.view_model']!.metadata).toMatchObject({ type: 'view', schema: engine === 'postgres' ? 'public' : 'main', name: 'view_model' });
    expect(Object.values(catalog.sources['source.base.raw.seed']!.columns).map((c) => [c.index, c.name])).toEqual([[1, 'id'], [2, 'name'], [3, 'some_date']]);
    expect(catalog.errors).toBeNull();
  });
});

describeEachEngine('incremental: new source rows are picked up by the is_incremental() filter (BaseIncremental)', (engine) => {
  const files = {
    'seeds/base.csv': csv(BASE_ROWS),
    'seeds/added.csv': csv([...BASE_ROWS, ...ADDED_ROWS]),
    'models/schema.yml': SOURCES,
    'models/incremental.sql': `{{ config(materialized="incremental") }}
select * from {{ source('raw', 'seed') }}
{% if is_incremental() %}
where id > (select max(id) from {{ this }})
{% endif %}
`,
  };
  // Seeded, run on base, then run on added (the first case checks each step): the two cases after it start from a copy.
  const onAdded = shared(() => {
    const p = conformanceProject(files, 'incremental', { engine });
    const seed = p.dbt(['seed']);
    const counts = [p.count('base'), p.count('added')];
    const first = p.dbt(['run', '--vars', 'seed_name: base']);
    const firstDifference = p.difference('base', 'incremental');
    const second = p.dbt(['run', '--vars', 'seed_name: added']);
    return { p, seed, counts, first, firstDifference, second };
  });

  it('first run equals base (10 rows); pointed at added, the second run adds exactly the 10 new rows', () => {
    const { p, seed, counts, first, firstDifference, second } = onAdded();
    expect(Object.keys(seed.statuses).sort()).toEqual(['seed.incremental.added', 'seed.incremental.base']);
    expect(counts).toEqual([10, 20]);

    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.statuses).toEqual({ 'model.incremental.incremental': 'success' });
    expect(firstDifference).toBe(0);

    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.statuses).toEqual({ 'model.incremental.incremental': 'success' });
    expect(p.difference('added', 'incremental')).toBe(0);
    expect(p.relationType('incremental')).toBe('table');
  });

  it('a run with no new rows adds nothing and rebuilds nothing (a row removed from the table stays removed)', async () => {
    const p = onAdded().p.copy();
    expect(p.difference('added', 'incremental')).toBe(0);
    p.exec('delete from incremental where id = 3');
    const again = await runInProcess(p, { vars: { seed_name: 'added' } });
    expect(again.code, again.messages).toBe(0);
    expect(p.count('incremental')).toBe(19);
    expect(p.rows('incremental', 'id').map((r) => r.id)).not.toContain(3);
  });

  it('--full-refresh rebuilds from the source it now reads', async () => {
    const p = onAdded().p.copy();
    const full = await runInProcess(p, { fullRefresh: true, vars: { seed_name: 'base' } });
    expect(full.code, full.messages).toBe(0);
    expect(p.difference('base', 'incremental')).toBe(0);
  });
});

describeEachEngine('an incremental run whose text column changes length is not a schema change (BaseIncrementalNotSchemaChange)', (engine) => {
  it('sync_all_columns: the second (incremental) run succeeds and keeps the one column set', async () => {
    const p = conformanceProject({
      'models/incremental_not_schema_change.sql': `{{ config(materialized="incremental", unique_key="user_id_current_time", on_schema_change="sync_all_columns") }}
select
    1 || '-' || current_timestamp as user_id_current_time,
    {% if is_incremental() %}
        'thisis18characters' as platform
    {% else %}
        'okthisis20characters' as platform
    {% endif %}
`,
    }, 'incremental', { engine });
    // Schema change is not evaluated on the first run, so two are needed.
    const first = await runInProcess(p, { select: ['incremental_not_schema_change'] });
    expect(first.code, first.messages).toBe(0);
    const second = await runInProcess(p, { select: ['incremental_not_schema_change'] });
    expect(second.code, second.messages).toBe(0);
    expect(second.statuses).toEqual({ 'model.incremental.incremental_not_schema_change': 'success' });
    expect(p.columns('incremental_not_schema_change')).toEqual(['user_id_current_time', 'platform']);
    expect(p.rows('incremental_not_schema_change').map((r) => r.platform).sort()).toContain('thisis18characters');
  });
});

describeEachEngine('table materialization: adapter-specific configs are no-ops, {{ this.schema }} names the schema (BaseTableMaterialization)', (engine) => {
  it('sort and dist are accepted and the table equals the seed it selects through this.schema', async () => {
    const people = ['1,Jack,Hunter,Male', '2,Kathryn,Walker,Female', '3,Gerald,Ryan,Male', '4,Bonnie,Spencer,Female', '5,Harold,Taylor,Male'];
    const p = conformanceProject({
      'seeds/seed.csv': `id,first_name,last_name,gender\n${people.join('\n')}\n`,
      'models/materialized.sql': `{{
  config(
    materialized = "table",
    sort = 'first_name',
    dist = 'first_name'
  )
}}

select * from {{ this.schema }}.seed
`,
    }, undefined, { engine });
    await succeedingRun(p.dir, { command: 'seed' });
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.conformance.materialized': 'success' });
    expect(p.relationType('materialized')).toBe('table');
    expect(p.difference('seed', 'materialized')).toBe(0);
    expect(p.count('materialized')).toBe(5);
  });
});

describeEachEngine('adapter methods in models and tests answer from the warehouse (BaseAdapterMethod, without schemas: SQLite has one)', (engine) => {
  const files = {
    'models/upstream.sql': "{{ config(materialized='table') }}\nselect 1 as id, 'a' as label\n",
    // get_relation with dbt's three positional arguments, and get_columns_in_relation, both at run time.
    'models/model.sql': `{% set upstream = ref('upstream') %}
{% set existing = adapter.get_relation(upstream.database, upstream.schema, upstream.identifier) %}
{% set columns = adapter.get_columns_in_relation(upstream) %}
select
  {{ "'" ~ (existing.type if existing is not none else 'missing') ~ "'" }} as found,
  {{ columns | length }} as column_count,
  '{{ columns | map(attribute='name') | join(',') }}' as column_names
from {{ upstream }}
`,
    // dbt's tests__get_columns_in_relation_sql: passes (no rows) only when the model has columns.
    'tests/get_columns_in_relation.sql': `{% set columns = adapter.get_columns_in_relation(ref('model')) %}
{% set limit_query = 0 %}
{% if (columns | length) == 0 %}
    {% set limit_query = 1 %}
{% endif %}

select 1 as id limit {{ limit_query }}
`,
  };

  // Compiled on an empty warehouse, then run (the first case checks both); the second case tests what that run built.
  const ran = shared(() => {
    const p = conformanceProject(files, 'adapter_methods', { engine });
    return { p, compile: p.dbt(['compile']), run: p.dbt(['run']) };
  });

  it('compile on an empty warehouse raises nothing; run then sees the upstream table and its columns', () => {
    const { p, compile, run } = ran();
    expect(compile.code, compile.stdout + compile.stderr).toBe(0);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.statuses).toEqual({ 'model.adapter_methods.upstream': 'success', 'model.adapter_methods.model': 'success' });
    expect(p.rows('model')).toEqual([{ found: 'table', column_count: 2, column_names: 'id,label' }]);
  });

  it('the singular test reading get_columns_in_relation passes once the model exists', () => {
    const { p, run } = ran();
    expect(run.code).toBe(0);
    const test = p.dbt(['test']);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(test.statuses).toEqual({ 'test.adapter_methods.get_columns_in_relation': 'pass' });
  });
});

describeEachEngine('--full-refresh on every materialization, with a view on top and leftover staging tables (dbt-core TestRuntimeMaterialization)', (engine) => {
  const guard = (kind: string) => `{% if is_incremental() %}\n{% do exceptions.raise_compiler_error("is_incremental() evaluated to True in a ${kind}") %}\n{% endif %}\n`;
  const files = {
    'seeds/seed.csv': `id,name,some_date\n${BASE_ROWS.join('\n')}\n`,
    'models/view.sql': `{{ config(materialized = "view") }}\nselect * from {{ this.schema }}.seed\n${guard('view')}`,
    'models/materialized.sql': `{{ config(materialized = "table") }}\nselect * from {{ this.schema }}.seed\n${guard('table')}`,
    'models/incremental.sql': '{{ config(materialized = "incremental") }}\nselect * from {{ this.schema }}.seed\n{% if is_incremental() %}\n    where id > (select max(id) from {{this}})\n{% endif %}\n',
  };
  const all = ['view', 'materialized', 'incremental'];
  // Seeded once; both cases start from a copy.
  let seeded: ConformanceProject;
  beforeAll(async () => {
    seeded = conformanceProject(files, 'test', { engine });
    await succeedingRun(seeded.dir, { command: 'seed' });
  });

  it('--full-refresh rebuilds the incremental model (a stray row goes), and a view the user put on the models still reads after', async () => {
    const p = seeded.copy();
    const first = await runInProcess(p, { fullRefresh: true });
    expect(first.code, first.messages).toBe(0);
    expect(Object.keys(first.statuses).sort()).toEqual(all.map((m) => `model.test.${m}`).sort());
    for (const m of all) expect(p.difference('seed', m), m).toBe(0);

    p.exec("insert into incremental (name, some_date) values ('Hank', '2001-01-01T00:00:00')");
    expect(p.count('incremental')).toBe(p.count('seed') + 1);
    expect((await runInProcess(p, { fullRefresh: true })).code).toBe(0);
    expect(p.difference('seed', 'incremental')).toBe(0);

    p.exec(`create view dependent_view as
      select 'materialized' as model, count(*) as n from materialized
      union all select 'view', count(*) from view
      union all select 'incremental', count(*) from incremental;
      insert into seed (id, name, some_date) values (101, 'Michael', '1990-01-01T00:00:00'), (102, 'Shawn', '1991-01-01T00:00:00');`);
    const again = await runInProcess(p, { fullRefresh: true });
    expect(again.code, again.messages).toBe(0);
    for (const m of all) expect(p.difference('seed', m), m).toBe(0);
    const n = p.count('seed');
    expect(n).toBe(12);
    expect(p.rows('dependent_view', 'model')).toEqual([{ model: 'incremental', n }, { model: 'materialized', n }, { model: 'view', n }]);
  });

  it('a staging table left behind (as by a crash) does not stop the rebuild and is gone after it', async () => {
    const p = seeded.copy();
    expect((await runInProcess(p)).code).toBe(0);
    p.exec('create table incremental__mini_dbt_tmp as select 1 as id; create table materialized__mini_dbt_tmp as select 1 as id');
    const run = await runInProcess(p, { select: ['incremental', 'materialized'], fullRefresh: true });
    expect(run.code, run.messages).toBe(0);
    expect(run.statuses).toEqual({ 'model.test.incremental': 'success', 'model.test.materialized': 'success' });
    expect([p.relationType('incremental__mini_dbt_tmp'), p.relationType('materialized__mini_dbt_tmp')]).toEqual([undefined, undefined]);
    for (const m of all) expect(p.difference('seed', m), m).toBe(0);
  });
});

describeEachEngine('a project with no nodes (BaseEmpty)', (engine) => {
  it('seed, run, test and build each succeed with 0 results and write run_results.json', () => {
    const p = conformanceProject({}, 'empty', { engine });
    for (const command of ['seed', 'run', 'test', 'build']) {
      const r = p.dbt([command]);
      expect(r.code, `${command}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(existsSync(join(p.dir, 'target/run_results.json')), command).toBe(true);
      expect(r.results, command).toEqual([]);
    }
  });
});
