import { expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter relations/test_changing_relation_type.py: one model whose materialization is a
 * var, run as a view, a table, a view again, an incremental model and a table with --full-refresh.
 * Each run replaces the relation the run before left, whatever its type, and the model's one row
 * names the materialization that built it. Beyond dbt's test: a second incremental run appends to
 * the table the first built, and an ephemeral model leaves the relation of its last run in place
 * (dbt never drops a relation for a model that becomes ephemeral: a trap kept as dbt has it).
 */
const MODEL = `{{ config(materialized=var('materialized')) }}

select '{{ var("materialized") }}' as materialization

{% if var('materialized') == 'incremental' and is_incremental() %}
    where 'abc' != (select max(materialization) from {{ this }})
{% endif %}
`;

function runAs(p: ConformanceProject, materialization: string, extra: readonly string[] = []): void {
  const run = p.dbt(['run', '--vars', `materialized: ${materialization}`, ...extra]);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.results.map((r) => [r.unique_id, r.status])).toEqual([['model.conformance.model_mc_modelface', 'success']]);
}

const rows = (p: ConformanceProject): string[] => p.rows('model_mc_modelface', 'materialization').map((r) => String(r.materialization));

describeEachEngine('changing a model\'s relation type between runs (dbt-tests-adapter relations)', (engine) => {
  it('TestChangeRelationTypes: view, table, view, incremental, table --full-refresh each replace the relation', () => {
    const p = conformanceProject({ 'models/model_mc_modelface.sql': MODEL }, 'conformance', { engine });
    const steps: [string, string[], string][] = [
      ['view', [], 'view'],
      ['table', [], 'table'],
      ['view', [], 'view'],
      ['incremental', [], 'table'],
      ['table', ['--full-refresh'], 'table'],
    ];
    for (const [materialization, extra, type] of steps) {
      runAs(p, materialization, extra);
      expect(p.relationType('model_mc_modelface'), materialization).toBe(type);
      expect(rows(p), materialization).toEqual([materialization]);
    }
  });

  it('an incremental run on the table an incremental run built appends; a view then replaces the table', () => {
    const p = conformanceProject({ 'models/model_mc_modelface.sql': MODEL }, 'conformance', { engine });
    runAs(p, 'table');
    // The table a table model built is the incremental model's target: is_incremental() is true, the row is appended.
    runAs(p, 'incremental');
    expect(rows(p)).toEqual(['incremental', 'table']);
    runAs(p, 'incremental');
    expect(rows(p)).toEqual(['incremental', 'incremental', 'table']);
    runAs(p, 'view');
    expect(p.relationType('model_mc_modelface')).toBe('view');
    expect(rows(p)).toEqual(['view']);
    runAs(p, 'incremental');
    expect(p.relationType('model_mc_modelface')).toBe('table');
    expect(rows(p)).toEqual(['incremental']);
  });

  it('a model that becomes ephemeral leaves the relation its last run built, as dbt does', () => {
    const p = conformanceProject({
      'models/model_mc_modelface.sql': MODEL,
      'models/reader.sql': "{{ config(materialized='table') }}\nselect materialization from {{ ref('model_mc_modelface') }}\n",
    }, 'conformance', { engine });
    expect(p.dbt(['run', '--vars', 'materialized: table']).code).toBe(0);
    const run = p.dbt(['run', '--vars', 'materialized: ephemeral']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The ephemeral model is inlined into its reader; the table of the earlier run is still there, stale.
    expect(p.rows('reader')).toEqual([{ materialization: 'ephemeral' }]);
    expect(p.relationType('model_mc_modelface')).toBe('table');
    expect(rows(p)).toEqual(['table']);
  });
});
