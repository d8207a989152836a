import { expect, it } from 'vitest';
import type { RunResult } from '../../src/api/run.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): merge_exclude_columns, and its mirror
 * merge_update_columns, as dbt-tests-adapter's
 * incremental/test_incremental_merge_exclude_columns.py drives them: the
 * first build writes ids 1 and 2, the incremental run brings new versions
 * of both and a new 3; a matched row keeps the excluded columns it had, a
 * new row is inserted whole. The table is compared with dbt's expected seed.
 */

function model(config: string): string {
  return `{{ config(materialized='incremental', unique_key='id', incremental_strategy='merge'${config}) }}
{% if not is_incremental() %}
select 1 as id, 'hello' as msg, 'blue' as color
union all select 2, 'goodbye', 'red'
{% else %}
select 1 as id, 'hey' as msg, 'blue' as color
union all select 2, 'yo', 'green'
union all select 3, 'anyway', 'purple'
{% endif %}
`;
}

/** dbt's expected seed: msg kept on the matched rows, color updated, id 3 inserted whole. */
const EXPECTED = `id,msg,color
1,hello,blue
2,goodbye,green
3,anyway,purple
`;

const projectOn = (engine: EngineName) => function project(config: string): MiniProject {
  return miniProject({ 'models/merged.sql': model(config), 'seeds/expected.csv': EXPECTED }, undefined, { engine });
};

function statuses(result: RunResult): string[] {
  return result.results.map((r) => `${r.name}:${r.status}`);
}

/** Seed afresh, build afresh, run incrementally (dbt's get_test_fields). */
async function twoRuns(p: MiniProject): Promise<RunResult> {
  expect(statuses(await p.build({ command: 'seed', fullRefresh: true }))).toEqual(['expected:success']);
  expect(statuses(await p.build({ select: ['merged'], fullRefresh: true }))).toEqual(['merged:success']);
  const second = await p.build({ select: ['merged'] });
  expect(second.results.map((r) => `${r.name}:${r.status}${r.message && r.status !== 'success' ? ` ${r.message}` : ''}`)).toEqual(['merged:success']);
  expect(second.results[0]!.plan!.mode).toBe('incremental');
  return second;
}

const rowsOf = (p: MiniProject) => p.rows('merged', 'id').map((r) => `${r.id}:${r.msg}:${r.color}`);

describeEachEngine('merge_exclude_columns: matched rows keep the excluded columns, new rows are inserted whole (test__merge_exclude_columns)', (engine) => {
  const project = projectOn(engine);
  it("merge_exclude_columns=['msg']: the table equals dbt's expected rows", async () => {
    const p = project(", merge_exclude_columns=['msg']");
    await twoRuns(p);
    expect(p.rows('merged')).toEqual(p.rows('expected'));
  });

  it("merge_update_columns=['color'] names the same update from the other side: the same rows", async () => {
    const p = project(", merge_update_columns=['color']");
    await twoRuns(p);
    expect(p.rows('merged')).toEqual(p.rows('expected'));
  });

  it('excluding every column but the key: matched rows are left as they were, the new row is inserted', async () => {
    const p = project(", merge_exclude_columns=['msg', 'color']");
    await twoRuns(p);
    expect(rowsOf(p)).toEqual(['1:hello:blue', '2:goodbye:red', '3:anyway:purple']);
  });

  it('an excluded column the model does not have is no error (dbt filters the columns it writes by name): every column is updated', async () => {
    const p = project(", merge_exclude_columns=['not_a_column']");
    await twoRuns(p);
    expect(rowsOf(p)).toEqual(['1:hey:blue', '2:yo:green', '3:anyway:purple']);
  });

  it('without either config, merge updates every column of matched rows', async () => {
    const p = project('');
    await twoRuns(p);
    expect(rowsOf(p)).toEqual(['1:hey:blue', '2:yo:green', '3:anyway:purple']);
  });

  it('--full-refresh rebuilds from the first-build SELECT: nothing of the merge remains', async () => {
    const p = project(", merge_exclude_columns=['msg']");
    await twoRuns(p);
    expect(statuses(await p.build({ select: ['merged'], fullRefresh: true }))).toEqual(['merged:success']);
    expect(rowsOf(p)).toEqual(['1:hello:blue', '2:goodbye:red']);
  });

  it("both merge_update_columns and merge_exclude_columns: that model errors when it runs (dbt's merge macro raises), exit 1, the table is as it was", async () => {
    const p = miniProject({
      'models/merged.sql': model(''),
      'models/other.sql': "{{ config(materialized='table') }}\nselect 1 as n\n",
    }, undefined, { engine });
    await p.buildOk();
    const before = rowsOf(p);
    p.write('models/merged.sql', model(", merge_update_columns=['color'], merge_exclude_columns=['msg']"));
    const result = await p.build();
    expect(result.exitCode).toBe(1);
    expect(result.results.map((r) => `${r.name}:${r.status}`).sort()).toEqual(['merged:error', 'other:success']);
    expect(result.results.find((r) => r.name === 'merged')!.message).toContain('merge_update_columns and merge_exclude_columns cannot both be set');
    expect(rowsOf(p)).toEqual(before);
  });

  it('both set on a model never built: its first build succeeds (the check lives in the incremental merge SQL), the incremental run fails it', async () => {
    const p = project(", merge_update_columns=['color'], merge_exclude_columns=['msg']");
    const first = await p.build({ select: ['merged'] });
    expect(statuses(first)).toEqual(['merged:success']);
    expect(rowsOf(p)).toEqual(['1:hello:blue', '2:goodbye:red']);
    const second = await p.build({ select: ['merged'] });
    expect(second.exitCode).toBe(1);
    expect(second.results[0]!.message).toContain('cannot both be set');
    expect(rowsOf(p)).toEqual(['1:hello:blue', '2:goodbye:red']);
  });
});
