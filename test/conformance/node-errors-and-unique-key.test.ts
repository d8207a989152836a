import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/run-cli.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): errors belong to nodes, and unique_key as
 * dbt reads it. Modelled on the behaviours dbt's adapter tests check
 * (dbt-tests-adapter incremental/test_incremental_unique_id.py, and the
 * bad-strategy tests of dbt-spark/dbt-databricks): each case is a small
 * project, a sequence of commands, and the rows the warehouse then holds.
 */

const RAW = `create table events (id integer, state text, amount integer);
insert into events values (1, 'CT', 10), (2, 'MA', 20), (3, 'NY', 30);`;

const projectOn = (engine: EngineName) => function project(files: Record<string, string>): MiniProject {
  const p = miniProject(files, undefined, { engine });
  p.exec(RAW);
  return p;
};

const count = (p: MiniProject, table: string) => p.rows(table).length;
const runResults = (dir: string) => JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: { unique_id: string; status: string; message: string | null }[] };

/**
 * The models of the cases whose one CLI run fails a node at run time (an unknown strategy, an unknown
 * materialization, a missing var, an invalid adapter method, a failing macro, a SQL error), each with
 * its child or independent model: independent of each other, so one project per engine holds them all
 * and one `run` builds them; each case reads its own models' results, rows and lines.
 */
const FAILING_AT_RUN_TIME = {
  'models/bogus.sql': "{{ config(materialized='incremental', incremental_strategy='bogus') }}\nselect id, state from {{ source('raw', 'events') }}\n",
  'models/bogus_child.sql': "select * from {{ ref('bogus') }}\n",
  'models/independent.sql': "{{ config(materialized='table') }}\nselect id, amount from {{ source('raw', 'events') }}\n",
  'models/typo.sql': "{{ config(materialized='tabel') }}\nselect id from {{ source('raw', 'events') }}\n",
  'models/typo_child.sql': "select * from {{ ref('typo') }}\n",
  'models/fine.sql': "{{ config(materialized='table') }}\nselect id from {{ source('raw', 'events') }}\n",
  'models/needs_var.sql': "select {{ var('currency') }} as c\n",
  'models/bad_adapter.sql': 'select 1 as a {% if execute %}{{ adapter.nope() }}{% endif %}\n',
  'models/bad_macro.sql': "select 1 as a {% if execute %}{{ exceptions.raise_compiler_error('no rows for ' ~ this.name) }}{% endif %}\n",
  'models/child.sql': "select * from {{ ref('bad_macro') }}\n",
  'models/broken.sql': "{{ config(materialized='table') }}\nselect nope from {{ source('raw', 'events') }}\n",
};
interface FailingRun { readonly p: MiniProject; readonly r: CliResult; readonly results: ReturnType<typeof runResults>['results'] }
const failingRuns = new Map<EngineName, FailingRun>();
function failingRun(engine: EngineName): FailingRun {
  let done = failingRuns.get(engine);
  if (!done) {
    const p = projectOn(engine)(FAILING_AT_RUN_TIME);
    const r = runCli(['run', '--project-dir', p.dir]);
    done = { p, r, results: runResults(p.dir).results };
    failingRuns.set(engine, done);
  }
  return done;
}
/** unique_id -> status of the given models (each must be in the results). */
const statusesOf = (results: FailingRun['results'], models: readonly string[]) =>
  Object.fromEntries(results.filter((x) => models.includes(x.unique_id.replace('model.shop.', ''))).map((x) => [x.unique_id, x.status]));

// One describe per engine holding the cases, so that the cases sharing one failing run share its project (its
// PostgreSQL database lives as long as the engine's describe).
describeEachEngine('errors belong to nodes; unique_key as dbt reads it', (engine) => {
  describe('an unknown incremental strategy fails its model, not the project (dbt: the strategy is resolved when the model runs)', () => {
    const project = projectOn(engine);
    const files = {
      'models/bogus.sql': "{{ config(materialized='incremental', incremental_strategy='bogus') }}\nselect id, state from {{ source('raw', 'events') }}\n",
      'models/bogus_child.sql': "select * from {{ ref('bogus') }}\n",
      'models/independent.sql': "{{ config(materialized='table') }}\nselect id, amount from {{ source('raw', 'events') }}\n",
    };

    it('run: the model errors naming the strategy and the valid ones, its child is skipped, the rest builds, exit 1', () => {
      const { p, r, results } = failingRun(engine);
      expect(r.code, r.stderr + r.stdout).toBe(1);
      const status = statusesOf(results, ['bogus', 'bogus_child', 'independent']);
      expect(status).toEqual({ 'model.shop.bogus': 'error', 'model.shop.bogus_child': 'skipped', 'model.shop.independent': 'success' });
      const message = results.find((x) => x.unique_id === 'model.shop.bogus')!.message!;
      expect(message).toContain("models/bogus.sql:1: model 'bogus' has unknown incremental_strategy 'bogus'; valid: append, delete+insert, merge, insert_overwrite, microbatch");
      expect(p.rows('independent', 'id').map((x) => x.amount)).toEqual([10, 20, 30]);
      expect(count(p, 'bogus')).toBe(0); // never built
      expect(r.stdout).toContain('Failure in model bogus');
    });

    it('a misspelled built-in strategy names the closest one, and loading the project (ls) still works', async () => {
      const p = project({ ...files, 'models/bogus.sql': "{{ config(materialized='incremental', incremental_strategy='delete_insert', unique_key='id') }}\nselect id, state from {{ source('raw', 'events') }}\n" });
      const ls = runCli(['ls', '--project-dir', p.dir]);
      expect(ls.code, ls.stderr).toBe(0);
      const result = await p.build();
      expect(result.exitCode).toBe(1);
      const bogus = result.results.find((x) => x.name === 'bogus')!;
      expect(bogus.status).toBe('error');
      expect(bogus.message).toContain("unknown incremental_strategy 'delete_insert'");
      expect(bogus.message).toContain("Did you mean 'delete+insert'?");
      expect(result.results.find((x) => x.name === 'independent')!.status).toBe('success');
    });
  });

  describe('an unknown materialization fails its model, not the project (dbt: MissingMaterializationError when the model runs)', () => {
    it('run: that model errors naming the valid materializations and the closest, its child is skipped, the rest builds, exit 1', () => {
      const { p, r, results } = failingRun(engine);
      expect(r.code, r.stderr + r.stdout).toBe(1);
      expect(statusesOf(results, ['typo', 'typo_child', 'fine'])).toEqual({ 'model.shop.typo': 'error', 'model.shop.typo_child': 'skipped', 'model.shop.fine': 'success' });
      expect(results.find((x) => x.unique_id === 'model.shop.typo')!.message).toContain("models/typo.sql:1: model 'typo' has unknown materialization 'tabel'; valid: view, table, incremental, ephemeral. Did you mean 'table'?");
      expect(count(p, 'fine')).toBe(3);
      expect(count(p, 'typo')).toBe(0);
    });
  });

  describe('an invalid on_schema_change is not a load error: dbt logs it and uses ignore', () => {
    const project = projectOn(engine);
    it('the incremental run warns naming the closest value and behaves as ignore (the new column is not written)', async () => {
      const model = (cols: string) => `{{ config(materialized='incremental', on_schema_change='append_new_column') }}\nselect ${cols} from {{ source('raw', 'events') }}\n`;
      const p = project({ 'models/inc.sql': model('id, state') });
      await p.buildOk();
      p.write('models/inc.sql', model('id, state, amount'));
      p.exec("insert into events values (4, 'WA', 40)");
      const logs: string[] = [];
      const r = await p.buildOk({ onEvent: (e) => { if (e.type === 'log') logs.push(e.message); } });
      expect(r.exitCode).toBe(0);
      expect(logs.join('\n')).toContain("inc: invalid on_schema_change 'append_new_column'; valid: ignore, fail, append_new_columns, sync_all_columns. Did you mean 'append_new_columns'? Using ignore, as dbt does");
      expect(p.columns('inc').map((c) => c.name)).toEqual(['id', 'state']);
      expect(count(p, 'inc')).toBe(7); // append (no key): 3, then 4 more
    });
  });

  describe("unique_key '' and [] mean no key: the default strategy is append (dbt's test__empty_str_unique_key, test__empty_unique_key_list)", () => {
    const project = projectOn(engine);
    for (const [label, key] of [['empty string', "''"], ['empty list', '[]']] as const) {
      it(`${label}: every run appends, a second run adds all rows again`, async () => {
        const p = project({ 'models/inc.sql': `{{ config(materialized='incremental', unique_key=${key}) }}\nselect id, state from {{ source('raw', 'events') }}\n` });
        const first = await p.buildOk();
        expect(first.results[0]!.plan!.strategy).toBe('append');
        expect(count(p, 'inc')).toBe(3);
        p.exec("insert into events values (4, 'WA', 40)");
        const second = await p.buildOk();
        expect(second.results[0]!.plan!.mode).toBe('incremental');
        expect(second.results[0]!.plan!.strategy).toBe('append');
        // append: 3 + 4; a key on id would have replaced the 3 and left 4.
        expect(count(p, 'inc')).toBe(7);
        expect(p.rows('inc', 'id, state').filter((x) => x.id === 1)).toHaveLength(2);
      });
    }

    it('filtered on is_incremental(), the model matches its source after new rows land (as dbt checks against the seed)', async () => {
      const p = project({ 'models/inc.sql': "{{ config(materialized='incremental', unique_key='') }}\nselect id, state, amount from {{ source('raw', 'events') }}\n{% if is_incremental() %} where id > (select max(id) from {{ this }}) {% endif %}\n" });
      await p.buildOk();
      p.exec("insert into events values (4, 'WA', 40), (5, 'CA', 50)");
      await p.buildOk();
      expect(p.rows('inc', 'id')).toEqual(p.rows('events', 'id'));
    });
  });

  describe('a unique_key column the model does not produce fails only an incremental run (dbt: "unique keys are not applied on first run")', () => {
    const project = projectOn(engine);
    for (const [label, key] of [['one column', "'thisisnotacolumn'"], ['a list', "['state', 'thisisnotacolumn']"]] as const) {
      it(`${label}: the full build succeeds, the incremental run fails that model (exit 1) and leaves its table as it was`, async () => {
        const p = project({
          'models/inc.sql': `{{ config(materialized='incremental', unique_key=${key}) }}\nselect id, state from {{ source('raw', 'events') }}\n`,
          'models/other.sql': "{{ config(materialized='table') }}\nselect count(*) as n from {{ source('raw', 'events') }}\n",
        });
        const full = await p.build({ fullRefresh: true });
        expect(full.results.map((x) => `${x.name}:${x.status}`).sort()).toEqual(['inc:success', 'other:success']);
        expect(full.exitCode).toBe(0);
        expect(count(p, 'inc')).toBe(3);
        p.exec("insert into events values (4, 'WA', 40)");
        const before = p.rows('inc');
        const incremental = await p.build();
        expect(incremental.exitCode).toBe(1);
        const inc = incremental.results.find((x) => x.name === 'inc')!;
        expect(inc.status).toBe('error');
        expect(inc.message.toLowerCase()).toContain('thisisnotacolumn');
        expect(p.rows('inc')).toEqual(before);
        expect(incremental.results.find((x) => x.name === 'other')!.status).toBe('success');
        expect(p.rows('other')).toEqual([{ n: 4 }]);
      });
    }

    it('through the CLI: the full build exits 0, the incremental run exits 1 (a node failure, not a project error)', () => {
      const p = project({ 'models/inc.sql': "{{ config(materialized='incremental', unique_key='order_day') }}\nselect id, state from {{ source('raw', 'events') }}\n" });
      const full = runCli(['run', '--project-dir', p.dir]);
      expect(full.code, full.stderr + full.stdout).toBe(0);
      expect(full.stdout).toContain("unique_key column 'order_day' not in the model's output: a full build ignores the key");
      const again = runCli(['run', '--project-dir', p.dir]);
      expect(again.code, again.stderr + again.stdout).toBe(1);
      expect(again.stdout).toContain("unique_key column 'order_day' of model 'inc' not in its output; the model produces: id, state");
      expect(runResults(p.dir).results.map((x) => x.status)).toEqual(['error']);
    });
  });

  describe('a node failing with an error the project caused exits 1, as every node failure in dbt does', () => {
    const project = projectOn(engine);
    it('a var missing at run time: that model errors, exit 1, the others build', () => {
      const { p, r, results } = failingRun(engine);
      expect(r.code, r.stderr + r.stdout).toBe(1);
      expect(r.stdout).toContain("Required var 'currency' not found");
      expect(statusesOf(results, ['needs_var', 'fine'])).toEqual({ 'model.shop.needs_var': 'error', 'model.shop.fine': 'success' });
      expect(count(p, 'fine')).toBe(3);
    });

    it('on_schema_change: fail on a changed model: the run fails that model, exit 1, the table keeps its rows', async () => {
      const p = project({ 'models/inc.sql': "{{ config(materialized='incremental', on_schema_change='fail') }}\nselect id, state from {{ source('raw', 'events') }}\n" });
      await p.buildOk(); // the first build, in process (the failing run below is the CLI's)
      p.write('models/inc.sql', "{{ config(materialized='incremental', on_schema_change='fail') }}\nselect id, state, amount from {{ source('raw', 'events') }}\n");
      const r = runCli(['run', '--project-dir', p.dir]);
      expect(r.code, r.stderr + r.stdout).toBe(1);
      expect(p.rows('inc', 'id')).toEqual([{ id: 1, state: 'CT' }, { id: 2, state: 'MA' }, { id: 3, state: 'NY' }]);
    });

    it('an invalid adapter method and a failing macro call reached at run time (under `execute`): those models error, a child is skipped, the rest builds, exit 1', () => {
      const { p, r, results } = failingRun(engine);
      expect(r.code, r.stderr + r.stdout).toBe(1);
      expect(statusesOf(results, ['bad_adapter', 'bad_macro', 'child', 'fine'])).toEqual({
        'model.shop.bad_adapter': 'error', 'model.shop.bad_macro': 'error', 'model.shop.child': 'skipped', 'model.shop.fine': 'success',
      });
      expect(results.find((x) => x.unique_id === 'model.shop.bad_adapter')!.message).toContain("'adapter' has no attribute 'nope'");
      expect(results.find((x) => x.unique_id === 'model.shop.bad_macro')!.message).toContain('no rows for bad_macro');
      expect(count(p, 'fine')).toBe(3);
    });

    it('a run-time SQL error: exit 1', () => {
      const { r, results } = failingRun(engine);
      expect(r.code, r.stderr + r.stdout).toBe(1);
      expect(statusesOf(results, ['broken'])).toEqual({ 'model.shop.broken': 'error' });
    });
  });
});
