import { expect, it } from 'vitest';
import type { RunResult } from '../../src/api/run.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): incremental_predicates, and its older
 * name `predicates`, set for every model in the project file, as
 * dbt-tests-adapter's incremental/test_incremental_predicates.py sets them
 * (BaseIncrementalPredicates, TestPredicatesDeleteInsert, and the merge
 * variants of dbt-bigquery and dbt-redshift). The model's first build writes
 * ids 1 and 2; its incremental run brings new versions of 1 and 2 and a new
 * 3, and the predicate keeps id 2 out of the delete, so the old 2 stays
 * next to the new one.
 */

const MODEL = `{{ config(materialized='incremental', unique_key='id') }}
{% if not is_incremental() %}
select 1 as id, 'hello' as msg, 'blue' as color
union all select 2, 'goodbye', 'red'
{% else %}
select 1 as id, 'hey' as msg, 'blue' as color
union all select 2, 'yo', 'green'
union all select 3, 'anyway', 'purple'
{% endif %}
`;

/** dbt's expected seed: id 2 was not deleted, so both its versions are there. */
const EXPECTED = `id,msg,color
1,hey,blue
2,goodbye,red
2,yo,green
3,anyway,purple
`;

const projectOn = (engine: EngineName) => function project(models: Record<string, unknown>): MiniProject {
  const yml = `name: shop\nmodels:\n  shop:\n${Object.entries(models).map(([k, v]) => `    ${k}: ${JSON.stringify(v)}\n`).join('')}`;
  return miniProject({ 'models/with_predicates.sql': MODEL, 'seeds/expected.csv': EXPECTED }, yml, { engine });
};

function ok(result: RunResult, names: readonly string[]): RunResult {
  expect(result.results.map((r) => `${r.name}:${r.status}${r.status === 'success' ? '' : ` ${r.message}`}`)).toEqual(names.map((n) => `${n}:success`));
  return result;
}

/** dbt's get_test_fields without an update file: seed afresh, build afresh, run again. */
async function twoRuns(p: MiniProject): Promise<RunResult> {
  ok(await p.build({ command: 'seed', fullRefresh: true }), ['expected']);
  ok(await p.build({ select: ['with_predicates'], fullRefresh: true }), ['with_predicates']);
  return ok(await p.build({ select: ['with_predicates'] }), ['with_predicates']);
}

describeEachEngine('delete+insert: a predicate narrows the delete, so a new version of a row it excludes is added next to the old one', (engine) => {
  const project = projectOn(engine);
  for (const key of ['+incremental_predicates', '+predicates'] as const) {
    it(`${key}: ["id != 2"] (project file): the table equals dbt's expected rows`, async () => {
      const p = project({ [key]: ['id != 2'], '+incremental_strategy': 'delete+insert' });
      const run = await twoRuns(p);
      expect(run.results[0]!.plan!.strategy).toBe('delete+insert');
      expect(run.results[0]!.rowsDeleted).toBe(1);
      expect(p.rows('with_predicates')).toEqual(p.rows('expected'));
    });
  }

  it('both set: `predicates` wins, as dbt reads `predicates or incremental_predicates`', async () => {
    const p = project({ '+predicates': ['id != 2'], '+incremental_predicates': ['id != 1'], '+incremental_strategy': 'delete+insert' });
    await twoRuns(p);
    expect(p.rows('with_predicates')).toEqual(p.rows('expected'));
  });

  it('an empty `predicates` list gives way to incremental_predicates (Python\'s `or`)', async () => {
    const p = project({ '+predicates': [], '+incremental_predicates': ['id != 2'], '+incremental_strategy': 'delete+insert' });
    await twoRuns(p);
    expect(p.rows('with_predicates')).toEqual(p.rows('expected'));
  });

  it('a predicate naming the target as DBT_INTERNAL_DEST, in the model config: the same rows', async () => {
    const p = miniProject({
      'models/with_predicates.sql': MODEL.replace("unique_key='id'", "unique_key='id', incremental_strategy='delete+insert', incremental_predicates=['DBT_INTERNAL_DEST.id != 2']"),
      'seeds/expected.csv': EXPECTED,
    }, undefined, { engine });
    await twoRuns(p);
    expect(p.rows('with_predicates')).toEqual(p.rows('expected'));
  });

  it('several predicates are ANDed: with id != 2 and color != \'blue\' nothing is deleted, every new row is added', async () => {
    const p = project({ '+incremental_predicates': ['id != 2', "color != 'blue'"], '+incremental_strategy': 'delete+insert' });
    const run = await twoRuns(p);
    expect(run.results[0]!.rowsDeleted).toBe(0);
    expect(p.rows('with_predicates', 'id, msg').map((r) => `${r.id}:${r.msg}`)).toEqual(['1:hello', '1:hey', '2:goodbye', '2:yo', '3:anyway']);
  });

  it('without a predicate, the same runs replace both old rows (the predicate is what kept id 2)', async () => {
    const p = project({ '+incremental_strategy': 'delete+insert' });
    const run = await twoRuns(p);
    expect(run.results[0]!.rowsDeleted).toBe(2);
    expect(p.rows('with_predicates', 'id').map((r) => `${r.id}:${r.msg}`)).toEqual(['1:hey', '2:yo', '3:anyway']);
  });

  it('--full-refresh ignores predicates and keys: the table is the first build again', async () => {
    const p = project({ '+predicates': ['id != 2'], '+incremental_strategy': 'delete+insert' });
    await twoRuns(p);
    ok(await p.build({ select: ['with_predicates'], fullRefresh: true }), ['with_predicates']);
    expect(p.rows('with_predicates', 'id').map((r) => `${r.id}:${r.msg}`)).toEqual(['1:hello', '2:goodbye']);
  });
});

describeEachEngine('merge (dbt-bigquery and dbt-redshift run the same test with merge): the predicate is part of the match, so an excluded row is inserted', (engine) => {
  const project = projectOn(engine);
  // dbt's MERGE matches on `predicates AND key`: the new id 2 matches no row and is inserted,
  // giving the same expected rows as delete+insert.
  it('+incremental_predicates: ["DBT_INTERNAL_DEST.id != 2"] with merge: the table equals dbt\'s expected rows (id 2 twice)', async () => {
    const p = project({ '+incremental_predicates': ['DBT_INTERNAL_DEST.id != 2'], '+incremental_strategy': 'merge' });
    await twoRuns(p);
    expect(p.rows('with_predicates')).toEqual(p.rows('expected'));
  });

  it('a predicate every target row passes changes nothing: merge updates 1 and 2 in place and inserts 3', async () => {
    const p = project({ '+incremental_predicates': ['DBT_INTERNAL_DEST.id > 0'], '+incremental_strategy': 'merge' });
    const run = await twoRuns(p);
    expect(run.results[0]!.plan!.strategy).toBe('merge');
    expect(p.rows('with_predicates', 'id').map((r) => `${r.id}:${r.msg}:${r.color}`)).toEqual(['1:hey:blue', '2:yo:green', '3:anyway:purple']);
  });
});
