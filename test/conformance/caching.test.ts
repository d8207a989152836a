import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter caching/test_caching.py: dbt's relation cache, filled at the start of a run and
 * by what the run builds, holds one relation after each of two runs, the same one however it was
 * spelled (quoting off, a model file named MODEL.sql). mini-dbt keeps no relation cache: it asks the
 * warehouse each time, so what a user sees is what is checked here: both runs succeed, the one
 * relation is there once, under the model's name, in the target's schema; --cache-selected-only and
 * --no-populate-cache are accepted (and change nothing) as dbt's flags.
 */
const MODEL = "{{\n    config(\n        materialized='table'\n    )\n}}\nselect 1 as id\n";
const ANOTHER = "{{\n    config(\n        materialized='table',\n        schema='another_schema'\n    )\n}}\nselect 1 as id\n";
const PROJECT = "name: caching\nversion: '1.0'\nprofile: default\nconfig-version: 2\nquoting:\n  identifier: false\n  schema: false\n";

describeEachEngine('the relation cache (dbt-tests-adapter caching)', (engine) => {
  const cases: [string, Record<string, string>, string[], string][] = [
    ['TestCachingLowerCaseModel', { 'models/model.sql': MODEL }, ['run'], 'model'],
    ['TestCachingUppercaseModel', { 'models/MODEL.sql': MODEL }, ['run'], 'MODEL'],
    ['TestCachingSelectedSchemaOnly', { 'models/model.sql': MODEL, 'models/another_schema_model.sql': ANOTHER }, ['--cache-selected-only', 'run', '--select', 'model'], 'model'],
    ['TestNoPopulateCache', { 'models/model.sql': MODEL }, ['--no-populate-cache', 'run'], 'model'],
  ];
  for (const [name, models, args, relation] of cases) {
    it(`${name}: two runs, one relation, the same each time`, () => {
      const p = conformanceProject({ 'dbt_project.yml': PROJECT, ...models }, 'caching', { engine });
      for (const round of [1, 2]) {
        const run = p.dbt(args);
        expect(run.code, `run ${round}: ${run.stdout}${run.stderr}`).toBe(0);
        expect(run.results.map((r) => [r.unique_id, r.status])).toEqual([[`model.caching.${relation}`, 'success']]);
        expect(p.relationType(relation)).toBe('table');
        expect(p.rows(relation)).toEqual([{ id: 1 }]);
      }
      // Only the selected model was built: another_schema_model (selected out) is nowhere.
      expect(p.relationType('another_schema_model')).toBeUndefined();
    });
  }
});
