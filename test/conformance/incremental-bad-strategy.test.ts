import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { compile } from '../../src/api/compile.js';
import { runCli } from '../support/run-cli.js';
import { miniProject, type MiniProject } from '../support/strategy-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';

/**
 * Conformance with dbt (issue 13): an incremental strategy that does not
 * exist, as dbt-tests-adapter's basic/test_incremental.py
 * (BaseIncrementalBadStrategy) drives it: the seeds load, and `run` fails
 * that model on its first attempt, naming the strategy macro it could not
 * find. dbt's `compile` never runs the materialization, so such a model (or
 * one whose materialization does not exist) compiles; only `run` fails it.
 */

const BASE = `id,name,some_date
1,Easton,1981-05-20T06:46:51
2,Lillian,1978-09-03T18:10:33
3,Jeremiah,1982-03-11T03:59:51
`;
const ADDED = `${BASE}4,Nolan,1976-05-06T20:21:35
5,Hannah,1982-06-23T05:41:26
`;
const SOURCES = `sources:
  - name: raw
    schema: "{{ target.schema }}"
    tables:
      - name: seed
        identifier: "{{ var('seed_name', 'base') }}"
`;
const MODEL = (config: string) => `{{ config(materialized="incremental"${config}) }}
select * from {{ source('raw', 'seed') }}
{% if is_incremental() %}
where id > (select max(id) from {{ this }})
{% endif %}
`;

const projectOn = (engine: EngineName) => function project(files: Record<string, string> = {}): MiniProject {
  return miniProject({ 'seeds/base.csv': BASE, 'seeds/added.csv': ADDED, 'models/sources.yml': SOURCES, 'models/incremental.sql': MODEL(', incremental_strategy="bad_strategy"'), ...files }, undefined, { engine });
};

interface RunResults { results: { unique_id: string; status: string; message: string | null }[] }
const runResults = (dir: string) => JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as RunResults;

describeEachEngine('run: an unknown incremental_strategy fails that model on its first attempt (test_incremental_invalid_strategy)', (engine) => {
  const project = projectOn(engine);
  it('seed loads both seeds; run has one result, an error naming the strategy and its macro; exit 1; nothing is built', () => {
    const p = project();
    const seed = runCli(['seed', '--project-dir', p.dir]);
    expect(seed.code, seed.stderr + seed.stdout).toBe(0);
    expect(runResults(p.dir).results.map((r) => r.status)).toEqual(['success', 'success']);
    const run = runCli(['run', '--project-dir', p.dir]);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const { results } = runResults(p.dir);
    expect(results).toHaveLength(1);
    expect(results[0]!.status).toBe('error');
    expect(results[0]!.message).toContain("unknown incremental_strategy 'bad_strategy'");
    expect(results[0]!.message).toContain('get_incremental_bad_strategy_sql');
    expect(p.columns('incremental')).toEqual([]);
  });

  it('on a table built before with a valid strategy: the incremental run and --full-refresh both fail it, and its rows stay as they were', async () => {
    const p = project({ 'models/incremental.sql': MODEL('') });
    await p.buildOk({ command: 'seed' });
    await p.buildOk();
    const before = p.rows('incremental');
    expect(before).toEqual(p.rows('base'));
    p.write('models/incremental.sql', MODEL(', incremental_strategy="bad_strategy"'));
    for (const fullRefresh of [false, true]) {
      const result = await p.build({ fullRefresh, vars: { seed_name: 'added' } });
      expect(result.exitCode).toBe(1);
      expect(result.results.map((r) => `${r.name}:${r.status}`)).toEqual(['incremental:error']);
      expect(p.rows('incremental')).toEqual(before);
    }
  });

  it('a project macro get_incremental_bad_strategy_sql makes the name a strategy (dbt looks the macro up by that name)', async () => {
    const p = project({ 'macros/bad_strategy.sql': '{% macro get_incremental_bad_strategy_sql(arg_dict) %}insert into {{ arg_dict["target_relation"] }} select * from {{ arg_dict["temp_relation"] }}{% endmacro %}\n' });
    await p.buildOk({ command: 'seed' });
    await p.buildOk();
    await p.buildOk({ vars: { seed_name: 'added' } });
    expect(p.rows('incremental')).toEqual(p.rows('added'));
  });
});

describeEachEngine("compile: a model a run would fail compiles, as in dbt (compile does not run the materialization)", (engine) => {
  const project = projectOn(engine);
  const files = {
    'models/incremental.sql': MODEL(', incremental_strategy="bad_strategy"'),
    'models/typo.sql': "{{ config(materialized='tabel') }}\nselect id, name from {{ ref('base') }}\n",
    'models/child.sql': "select id from {{ ref('incremental') }}\n",
  };

  it('mini-dbt compile exits 0 and prints the SELECT of the bad-strategy model, the unknown-materialization model and their child', () => {
    const p = project(files);
    const r = runCli(['compile', '--project-dir', p.dir]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain('where id > (select max(id) from');
    expect(r.stdout).toContain('select id, name from');
    expect(r.stdout).toContain('-- child (models/child.sql)');
    expect(r.stdout).toContain("unknown incremental_strategy 'bad_strategy'");
    expect(r.stdout).toContain("unknown materialization 'tabel'");
  });

  it("the API's compile renders both branches and plans a refusal; run still fails those models (exit 1) and skips the child", async () => {
    const p = project(files);
    const compiled = compile({ projectDir: p.dir, writeArtifacts: false });
    const byName = Object.fromEntries(compiled.map((c) => [c.node.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['child', 'incremental', 'typo']);
    expect(byName.incremental!.fullSql).not.toContain('where id >');
    expect(byName.incremental!.incrementalSql).toContain('where id > (select max(id) from');
    for (const name of ['incremental', 'typo']) {
      expect(byName[name]!.plan.statements.map((s) => s.kind)).toEqual(['fail']);
    }
    await p.buildOk({ command: 'seed' });
    const run = await p.build();
    expect(run.exitCode).toBe(1);
    expect(Object.fromEntries(run.results.map((r) => [r.name, r.status]))).toEqual({ incremental: 'error', typo: 'error', child: 'skipped' });
    expect(p.columns('typo')).toEqual([]);
  });
});

describeEachEngine("a strategy's own config problem fails only an incremental run: dbt raises it in the macro that writes the incremental SQL", (engine) => {
  const project = projectOn(engine);
  it('insert_overwrite without partition_by: the first build succeeds, the incremental run fails that model (exit 1) and leaves the table', async () => {
    const p = project({ 'models/incremental.sql': MODEL(', incremental_strategy="insert_overwrite"') });
    await p.buildOk({ command: 'seed' });
    await p.buildOk();
    expect(p.rows('incremental')).toEqual(p.rows('base'));
    const result = await p.build({ vars: { seed_name: 'added' } });
    expect(result.exitCode).toBe(1);
    expect(result.results[0]!.status).toBe('error');
    expect(result.results[0]!.message).toContain("'insert_overwrite' needs partition_by");
    expect(p.rows('incremental')).toEqual(p.rows('base'));
    // compile shows what that run would do instead of stopping
    const [compiled] = compile({ projectDir: p.dir, writeArtifacts: false, vars: { seed_name: 'added' } });
    expect(compiled!.plan.mode).toBe('incremental');
    expect(compiled!.plan.statements).toEqual([{ kind: 'fail', message: expect.stringContaining("'insert_overwrite' needs partition_by") }]);
  });
});
