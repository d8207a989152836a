import { expect, it } from 'vitest';
import type { RunResult } from '../../src/api/run.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): on_schema_change in its four modes, as
 * dbt-tests-adapter's incremental/test_incremental_on_schema_change.py (with
 * the models of incremental/fixtures.py) and basic/test_incremental.py
 * (BaseIncrementalNotSchemaChange) drive them. An upstream table holds six
 * rows; each incremental model builds ids 1-3 with some columns, then its
 * incremental run adds ids 4-6 with other columns; a plain table model
 * computes what dbt expects the incremental table to hold, and the two are
 * compared row for row (same columns, same values). Casts use
 * `{{ dbt.type_string() }}`, as dbt's fixtures do.
 */

const UPSTREAM = `{{ config(materialized='table') }}
select 1 as id, 'aaa' as field1, 'bbb' as field2, 111 as field3, 'TTT' as field4
union all select 2, 'ccc', 'ddd', 222, 'UUU'
union all select 3, 'eee', 'fff', 333, 'VVV'
union all select 4, 'ggg', 'hhh', 444, 'WWW'
union all select 5, 'iii', 'jjj', 555, 'XXX'
union all select 6, 'kkk', 'lll', 666, 'YYY'
`;

/** An incremental model keyed on id: `first` columns for ids 1-3, then `later` columns for the ids not yet in the table. */
function incremental(mode: string, first: string, later: string): string {
  return `{{ config(materialized='incremental', unique_key='id', on_schema_change='${mode}') }}
{% set string_type = dbt.type_string() %}
with source_data as (select * from {{ ref('upstream') }})
{% if is_incremental() %}
select ${later} from source_data where id not in (select id from {{ this }})
{% else %}
select ${first} from source_data where id <= 3
{% endif %}
`;
}

/** The expected table: every row, each column as dbt's target model writes it. */
function expected(columns: string): string {
  return `{{ config(materialized='table') }}
{% set string_type = dbt.type_string() %}
select ${columns} from {{ ref('upstream') }}
`;
}

const str = (column: string) => `cast(${column} as {{ string_type }}) as ${column}`;
const laterOnly = (column: string) => `cast(case when id <= 3 then null else ${column} end as {{ string_type }}) as ${column}`;
const firstOnly = (column: string) => `cast(case when id > 3 then null else ${column} end as {{ string_type }}) as ${column}`;

const projectOn = (engine: EngineName) => function project(model: string, target: string): MiniProject {
  return miniProject({ 'models/upstream.sql': UPSTREAM, 'models/inc.sql': model, 'models/inc_expected.sql': target }, undefined, { engine });
};

function allOk(result: RunResult): void {
  expect(result.results.map((r) => `${r.name}:${r.status}${r.status === 'success' ? '' : ` ${r.message}`}`).sort()).toEqual(['inc:success', 'inc_expected:success', 'upstream:success']);
  expect(result.exitCode).toBe(0);
}

/** dbt's run_twice_and_assert: two runs of the three models, then the incremental table equals the expected one. */
async function runTwiceAndCompare(p: MiniProject): Promise<RunResult> {
  allOk(await p.build());
  const second = await p.build();
  allOk(second);
  expect(second.results.find((r) => r.name === 'inc')!.plan!.mode).toBe('incremental');
  expect(p.rows('inc', 'id')).toEqual(p.rows('inc_expected', 'id'));
  return second;
}

const names = (p: MiniProject, table: string) => p.columns(table).map((c) => c.name);

describeEachEngine('ignore: new columns are not written, the table keeps its columns (test_run_incremental_ignore)', (engine) => {
  const project = projectOn(engine);
  it('ids 4-6 arrive with field3 and field4: the table holds all six rows with id, field1, field2 only', async () => {
    const p = project(
      incremental('ignore', 'id, field1, field2', 'id, field1, field2, field3, field4'),
      expected('id, field1, field2'),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field1', 'field2']);
  });

  it('ignore is the default: without on_schema_change the same rows', async () => {
    const p = project(
      incremental('ignore', 'id, field1, field2', 'id, field1, field2, field3, field4').replace(", on_schema_change='ignore'", ''),
      expected('id, field1, field2'),
    );
    await runTwiceAndCompare(p);
  });
});

describeEachEngine('ignore with a column the model no longer produces: dbt inserts the table\'s columns, so the run fails that model', (engine) => {
  const project = projectOn(engine);
  it('field2 dropped from the model: the incremental run errors naming field2 (exit 1), the table keeps its rows', async () => {
    const p = project(incremental('ignore', 'id, field1, field2', 'id, field1'), expected('id, field1, field2'));
    allOk(await p.build());
    const before = p.rows('inc', 'id');
    const second = await p.build({ select: ['inc'] });
    expect(second.exitCode).toBe(1);
    expect(second.results[0]!.status).toBe('error');
    expect(second.results[0]!.message).toContain('field2');
    expect(p.rows('inc', 'id')).toEqual(before);
  });
});

describeEachEngine('append_new_columns: new columns are added, old rows hold NULL in them (test_run_incremental_append_new_columns)', (engine) => {
  const project = projectOn(engine);
  it('field3 and field4 are added; ids 1-3 have NULL there', async () => {
    const p = project(
      incremental('append_new_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}, ${str('field2')}, ${str('field3')}, ${str('field4')}`),
      expected(`id, ${str('field1')}, ${str('field2')}, ${laterOnly('field3')}, ${laterOnly('field4')}`),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field1', 'field2', 'field3', 'field4']);
  });

  it('a column the model no longer selects is kept, NULL in the new rows (the remove_one case)', async () => {
    const p = project(
      incremental('append_new_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}, ${str('field3')}, ${str('field4')}`),
      expected(`id, ${str('field1')}, ${firstOnly('field2')}, ${laterOnly('field3')}, ${laterOnly('field4')}`),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field1', 'field2', 'field3', 'field4']);
  });
});

describeEachEngine('sync_all_columns: the table takes the model\'s columns, adding and dropping (test_run_incremental_sync_all_columns)', (engine) => {
  const project = projectOn(engine);
  it('field2 is dropped, field3 and field4 added: ids 1-3 keep field1 and hold NULL in the new columns', async () => {
    const p = project(
      incremental('sync_all_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}, ${str('field3')}, ${str('field4')}`),
      expected(`id, ${str('field1')}, ${laterOnly('field3')}, ${laterOnly('field4')}`),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field1', 'field3', 'field4']);
  });

  it('only removing a column (the sync_remove_only case): field2 is dropped from the table', async () => {
    const p = project(
      incremental('sync_all_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}`),
      expected(`id, ${str('field1')}`),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field1']);
  });

  it('a key computed per run and a longer text value are no schema change: the second run succeeds (BaseIncrementalNotSchemaChange)', async () => {
    const p = miniProject({
      'models/not_schema_change.sql': `{{ config(materialized='incremental', unique_key='user_id_current_time', on_schema_change='sync_all_columns') }}
select 1 || '-' || current_timestamp as user_id_current_time,
{% if is_incremental() %} 'thisis18characters' as platform {% else %} 'okthisis20characters' as platform {% endif %}
`,
    }, undefined, { engine });
    await p.buildOk();
    const second = await p.buildOk();
    expect(second.results[0]!.plan!.mode).toBe('incremental');
    expect(names(p, 'not_schema_change')).toEqual(['user_id_current_time', 'platform']);
    expect(p.rows('not_schema_change').map((r) => r.platform)).toContain('thisis18characters');
  });
});

describeEachEngine('fail: a changed column list fails that model, and the table is left as it was (test_run_incremental_fail_on_schema_change)', (engine) => {
  const project = projectOn(engine);
  it('built with field3, run with field2: the incremental run errors (exit 1) naming both columns; upstream still succeeds', async () => {
    const p = miniProject({
      'models/upstream.sql': UPSTREAM,
      'models/inc.sql': `{{ config(materialized='incremental', unique_key='id', on_schema_change='fail') }}
with source_data as (select * from {{ ref('upstream') }})
{% if is_incremental() %} select id, field1, field2 from source_data {% else %} select id, field1, field3 from source_data {% endif %}
`,
    }, undefined, { engine });
    const first = await p.build({ fullRefresh: true });
    expect(first.exitCode).toBe(0);
    const before = p.rows('inc', 'id');
    const second = await p.build();
    expect(second.exitCode).toBe(1);
    expect(Object.fromEntries(second.results.map((r) => [r.name, r.status]))).toEqual({ upstream: 'success', inc: 'error' });
    const message = second.results.find((r) => r.name === 'inc')!.message;
    expect(message).toContain('field2');
    expect(message).toContain('field3');
    expect(p.rows('inc', 'id')).toEqual(before);
    expect(names(p, 'inc')).toEqual(['id', 'field1', 'field3']);
  });

  // dbt raises it with raise_compiler_error, so the result's message starts "Compilation Error in model
  // inc (models/inc.sql)" (dbt's test asserts "Compilation Error" in it).
  it('the failed result\'s message says "Compilation Error in model inc (models/inc.sql)", as dbt\'s does', async () => {
    const p = miniProject({
      'models/inc.sql': "{{ config(materialized='incremental', unique_key='id', on_schema_change='fail') }}\nselect 1 as id{% if is_incremental() %}, 2 as extra{% endif %}\n",
    }, undefined, { engine });
    expect((await p.build()).exitCode).toBe(0);
    const second = await p.build();
    expect(second.exitCode).toBe(1);
    expect(second.results[0]!.message).toMatch(/^Compilation Error in model inc \(models\/inc\.sql\)\n/);
    expect(second.results[0]!.message).toContain("only in the model's output: extra");
  });

  it('fail with the same columns is no failure: the run succeeds and adds the new ids', async () => {
    const p = project(
      incremental('fail', 'id, field1, field2', 'id, field1, field2'),
      expected('id, field1, field2'),
    );
    await runTwiceAndCompare(p);
  });
});

describeEachEngine("dbt's type macros: dbt.type_string() and the others render what dbt's defaults give, and cast in SQLite", (engine) => {
  const project = projectOn(engine);
  it('type_string, type_int, type_bigint, type_float, type_numeric, type_boolean', async () => {
    const p = miniProject({
      'models/typed.sql': `{{ config(materialized='table') }}
select cast(12 as {{ dbt.type_string() }}) as s, cast('7' as {{ dbt.type_int() }}) as i, cast('8' as {{ dbt.type_bigint() }}) as b,
  cast('1.5' as {{ dbt.type_float() }}) as f, cast('2.25' as {{ dbt.type_numeric() }}) as n, cast(1 as {{ dbt.type_boolean() }}) as t,
  '{{ dbt.type_string() }}|{{ dbt.type_int() }}|{{ dbt.type_bigint() }}|{{ dbt.type_float() }}|{{ dbt.type_numeric() }}|{{ dbt.type_boolean() }}' as names
`,
    }, undefined, { engine });
    await p.buildOk();
    // PostgreSQL has a boolean type and spells dbt's string type in lower case.
    const postgres = engine === 'postgres';
    expect(p.rows('typed')).toEqual([{ s: '12', i: 7, b: 8, f: 1.5, n: 2.25, t: postgres ? true : 1, names: `${postgres ? 'text' : 'TEXT'}|integer|bigint|float|numeric(28,6)|boolean` }]);
  });
});

describeEachEngine('column names that need quoting (a space, a keyword, a dash, dots): columns are added and dropped by their quoted names (the special-character cases of dbt-postgres test_incremental.py)', (engine) => {
  const project = projectOn(engine);
  const q = (name: string) => `{{ adapter.quote("${name}") }}`;
  const SPECIAL_UPSTREAM = `{{ config(materialized='table') }}
select 1 as id, 'aaa' as ${q('field with space')}, 'bbb' as ${q('select')}, 111 as ${q('field-with-dash')}, 'TTT' as ${q('field.with.dots')}
union all select 2, 'ccc', 'ddd', 222, 'UUU'
union all select 3, 'eee', 'fff', 333, 'VVV'
union all select 4, 'ggg', 'hhh', 444, 'WWW'
`;
  const special = (model: string, target: string) => miniProject({ 'models/upstream.sql': SPECIAL_UPSTREAM, 'models/inc.sql': model, 'models/inc_expected.sql': target }, undefined, { engine });

  it("append_new_columns: 'field-with-dash' and 'field.with.dots' are added, NULL for ids 1-3", async () => {
    const p = special(
      incremental('append_new_columns', `id, ${str(q('field with space'))}, ${str(q('select'))}`, `id, ${str(q('field with space'))}, ${str(q('select'))}, ${str(q('field-with-dash'))}, ${str(q('field.with.dots'))}`),
      expected(`id, ${str(q('field with space'))}, ${str(q('select'))}, ${laterOnly(q('field-with-dash'))}, ${laterOnly(q('field.with.dots'))}`),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field with space', 'select', 'field-with-dash', 'field.with.dots']);
  });

  it("sync_all_columns: 'select' is dropped, 'field-with-dash' added", async () => {
    const p = special(
      incremental('sync_all_columns', `id, ${q('select')}`, `id, ${q('field-with-dash')}`),
      expected(`id, case when id <= 3 then null else ${q('field-with-dash')} end as ${q('field-with-dash')}`),
    );
    await runTwiceAndCompare(p);
    expect(names(p, 'inc')).toEqual(['id', 'field-with-dash']);
  });
});

describeEachEngine('the same runs under merge (dbt-snowflake and dbt-bigquery run this suite with merge, their default strategy)', (engine) => {
  const project = projectOn(engine);
  const merge = (model: string) => model.replace("unique_key='id'", "unique_key='id', incremental_strategy='merge'");
  const cases: [string, string, string, string[]][] = [
    ['ignore', incremental('ignore', 'id, field1, field2', 'id, field1, field2, field3, field4'), expected('id, field1, field2'), ['id', 'field1', 'field2']],
    ['append_new_columns', incremental('append_new_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}, ${str('field3')}, ${str('field4')}`),
      expected(`id, ${str('field1')}, ${firstOnly('field2')}, ${laterOnly('field3')}, ${laterOnly('field4')}`), ['id', 'field1', 'field2', 'field3', 'field4']],
    ['sync_all_columns', incremental('sync_all_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}, ${str('field3')}, ${str('field4')}`),
      expected(`id, ${str('field1')}, ${laterOnly('field3')}, ${laterOnly('field4')}`), ['id', 'field1', 'field3', 'field4']],
  ];
  for (const [mode, model, target, columns] of cases) {
    it(`${mode}: the table equals the expected one`, async () => {
      const p = project(merge(model), target);
      const second = await runTwiceAndCompare(p);
      expect(second.results.find((r) => r.name === 'inc')!.plan!.strategy).toBe('merge');
      expect(names(p, 'inc')).toEqual(columns);
    });
  }

  it('sync_all_columns on rows that are updated, not only inserted: a matched row takes the new columns\' values', async () => {
    const p = project(
      merge(incremental('sync_all_columns', `id, ${str('field1')}, ${str('field2')}`, `id, ${str('field1')}, ${str('field3')}, ${str('field4')}`)).replace('where id not in (select id from {{ this }})', 'where id >= 3'),
      expected(`id, ${str('field1')}, cast(case when id < 3 then null else field3 end as {{ string_type }}) as field3, cast(case when id < 3 then null else field4 end as {{ string_type }}) as field4`),
    );
    await runTwiceAndCompare(p);
  });
});
