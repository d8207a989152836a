import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * dbt-tests-adapter concurrency/test_concurrency.py, run with four threads (dbt's test profiles
 * have `threads: 4`): seven models reading the seed, one of them invalid (a column that does not
 * exist) and one that refs it. The run goes on past the error: five models succeed, the invalid one
 * errors and its child is skipped, and neither leaves a relation. Changing seed.csv without seeding
 * again changes nothing the run reads: the second run builds the same relations with the same
 * statuses. On PostgreSQL the independent models run side by side (each thread on its own
 * connection); SQLite has one writer, so they run one at a time, with the same results.
 */
const header = 'id,first_name,last_name,email,gender,ip_address';
const seed = (names: readonly string[]): string =>
  [header, ...names.map((n, i) => `${i + 1},${n},Last${i + 1},${n.toLowerCase()}${i}@example.com,${i % 2 ? 'Female' : 'Male'},10.0.${i}.${i}`)].join('\n') + '\n';
const FIRST = seed(Array.from({ length: 100 }, (_, i) => `Name${i}`));
const UPDATED = seed(Array.from({ length: 100 }, (_, i) => `Other${i}`));

const table = (body: string): string => `{{\n  config(\n    materialized = "table"\n  )\n}}\n\n${body}\n`;

const FILES = {
  'seeds/seed.csv': FIRST,
  'models/invalid.sql': table('select a_field_that_does_not_exist from {{ this.schema }}.seed'),
  'models/table_a.sql': table('select * from {{ this.schema }}.seed'),
  'models/table_b.sql': table('select * from {{ this.schema }}.seed'),
  'models/view_model.sql': '{{\n  config(\n    materialized = "view"\n  )\n}}\n\nselect * from {{ this.schema }}.seed\n',
  'models/dep.sql': table("select * from {{ref('view_model')}}"),
  'models/view_with_conflicting_cascade.sql': "select * from {{ref('table_a')}}\n\nunion all\n\nselect * from {{ref('table_b')}}\n",
  'models/skip.sql': "select * from {{ref('invalid')}}\n",
};

describeEachEngine('concurrency (dbt-tests-adapter concurrency)', (engine) => {
  it('TestConcurenncy: with 4 threads an error fails one model and skips its child; the others build', () => {
    const p = conformanceProject(FILES, 'concurrency', { engine });
    expect(p.dbt(['seed', '--select', 'seed']).code).toBe(0);
    for (const round of [1, 2]) {
      const run = p.dbt(['run', '--threads', '4']);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.results).toHaveLength(7);
      expect(run.statuses, run.stdout).toEqual({
        'model.concurrency.invalid': 'error',
        'model.concurrency.skip': 'skipped',
        'model.concurrency.table_a': 'success',
        'model.concurrency.table_b': 'success',
        'model.concurrency.view_model': 'success',
        'model.concurrency.dep': 'success',
        'model.concurrency.view_with_conflicting_cascade': 'success',
      });
      for (const relation of ['view_model', 'dep', 'table_a', 'table_b']) expect(p.difference('seed', relation), `${relation}, run ${round}`).toBe(0);
      expect(p.count('view_with_conflicting_cascade')).toBe(200);
      expect(p.relationType('invalid')).toBeUndefined();
      expect(p.relationType('skip')).toBeUndefined();
      // seed.csv changes; the seed table does not until `seed` runs again.
      p.write('seeds/seed.csv', UPDATED);
    }
    expect(p.rows('table_a', 'id')[0]).toMatchObject({ id: 1, first_name: 'Name0' });
  });
});
