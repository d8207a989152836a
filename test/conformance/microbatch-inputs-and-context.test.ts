
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import type { RunOptions } from '../../src/api/run.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Conformance with dbt (issue 13): what a microbatch batch reads, and what its
 * templates see. Modelled on dbt-core's tests/functional/microbatch/test_microbatch.py
 * (TestMicrobatchWithSource, TestMicrobatchWithInputWithoutEventTime,
 * TestMicrobatchUsingRefRenderSkipsFilter, TestMicrobatchJinjaContext,
 * TestMicrobatchJinjaContextVarsAvailable, TestFirstBatchRunsPreHookLastBatchRunsPostHook,
 * TestWhenOnlyOneBatchRunBothPostAndPreHooks). "Now" is the as_of var.
 *
 * Where an input is not filtered, every batch reads every row. dbt-core's tests
 * run on Postgres, whose microbatch is a merge on unique_key (so they count 3,
 * then 5 rows); mini-dbt's is the window delete and insert of dbt-snowflake and
 * the README, so here the unfiltered rows are written by every batch, and the
 * cases check which ids reach the table.
 *
 * Cases about rows run the commands in process (the API the CLI calls); the
 * cases about what the CLI prints (the warning, log() lines) spawn it.
 */

const INPUT = `{{ config(materialized='table', event_time='event_time') }}
select 1 as id, '2020-01-01 00:00:00' as event_time
union all select 2, '2020-01-02 00:00:00'
union all select 3, '2020-01-03 00:00:00'
`;
const CONFIG = "{{ config(materialized='incremental', incremental_strategy='microbatch', unique_key='id', event_time='event_time', batch_size='day', begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0)) }}";
const MICROBATCH = `${CONFIG}\nselect * from {{ ref('input_model') }}\n`;

/** dbt's check_invalid_batch_jinja_context macro (TestMicrobatchJinjaContext). */
const CONTEXT_CHECK = `{% macro check_invalid_batch_jinja_context() %}
{% if model is not mapping %}
    {{ exceptions.raise_compiler_error("\`model\` is invalid: expected mapping type") }}
{% elif compiled_code and compiled_code is not string %}
    {{ exceptions.raise_compiler_error("\`compiled_code\` is invalid: expected string type") }}
{% elif sql and sql is not string %}
    {{ exceptions.raise_compiler_error("\`sql\` is invalid: expected string type") }}
{% elif is_incremental is not callable %}
    {{ exceptions.raise_compiler_error("\`is_incremental()\` is invalid: expected callable type") }}
{% elif should_full_refresh is not callable %}
    {{ exceptions.raise_compiler_error("\`should_full_refresh()\` is invalid: expected callable type") }}
{% endif %}
{% endmacro %}
`;

interface Project { dir: string; write(path: string, text: string): void; exec(sql: string): void; ids(table?: string): unknown[]; rows(sql: string): Record<string, unknown>[] }

const projectOn = (engine: EngineName) => (files: Record<string, string>): Project => {
  const p = conformanceProject(files, 'shop', { engine });
  return { dir: p.dir, write: p.write, exec: p.exec, ids: (table = 'microbatch_model') => p.rows(table, 'id').map((r) => r.id), rows: p.query };
};
const at = (now: string) => ['--vars', `{as_of: "${now}"}`];
const dbt = (p: Project, ...args: string[]): CliResult => runCli([...args, '--project-dir', p.dir]);
const ok = (r: CliResult) => expect(r.code, r.stdout + r.stderr).toBe(0);
/** A command in process: `run` (or `seed`) with "now" at `now`, every node succeeding (exit 0). */
async function built(p: Project, now: string | undefined, options: Partial<RunOptions> = {}): Promise<void> {
  await succeedingRun(p.dir, { ...(now === undefined ? {} : { vars: { as_of: now } }), ...options });
}
const only = (model: string): Partial<RunOptions> => ({ select: [model] });
const distinct = (ids: unknown[]) => [...new Set(ids)];

describeEachEngine('a source that declares event_time is filtered to each batch (TestMicrobatchWithSource)', (engine) => {
  const project = projectOn(engine);
  it('seeded source with config: event_time: rows land in the model only as "now" reaches their day', async () => {
    const p = project({
      'seeds/raw_source.csv': 'id,event_time\n1,2020-01-01 00:00:00\n2,2020-01-02 00:00:00\n3,2020-01-03 00:00:00\n',
      'models/seeds.yml': 'seeds:\n  - name: raw_source\n    config:\n      column_types:\n        event_time: TIMESTAMP\n',
      'models/sources.yml': 'sources:\n  - name: seed_sources\n    schema: "{{ target.schema }}"\n    tables:\n      - name: raw_source\n        config:\n          event_time: event_time\n',
      'models/microbatch_model.sql': `${CONFIG}\nselect * from {{ source('seed_sources', 'raw_source') }}\n`,
    });
    await built(p, undefined, { command: 'seed' });
    await built(p, '2020-01-03 13:57:00');
    expect(p.ids()).toEqual([1, 2, 3]);
    await built(p, '2020-01-03 14:57:00');
    expect(p.ids()).toEqual([1, 2, 3]);

    p.exec("insert into raw_source (id, event_time) values (4, '2020-01-04 00:00:00'), (5, '2020-01-05 00:00:00')");
    expect(p.ids('raw_source')).toEqual([1, 2, 3, 4, 5]);
    await built(p, '2020-01-03 14:57:00', only('microbatch_model'));
    expect(p.ids()).toEqual([1, 2, 3]);
    await built(p, '2020-01-04 14:57:00', only('microbatch_model'));
    expect(p.ids()).toEqual([1, 2, 3, 4]);
    await built(p, '2020-01-05 14:57:00', only('microbatch_model'));
    expect(p.ids()).toEqual([1, 2, 3, 4, 5]);
  });
});

describeEachEngine('an input without event_time is not filtered (TestMicrobatchWithInputWithoutEventTime)', (engine) => {
  const project = projectOn(engine);
  it('every batch reads every row, so rows after the last batch reach the table at once', async () => {
    const p = project({
      'models/input_model.sql': INPUT.replace(", event_time='event_time'", ''),
      'models/microbatch_model.sql': MICROBATCH,
    });
    await built(p, '2020-01-03 13:57:00');
    // Batch 1 writes 1, 2, 3; batch 2 replaces its day (id 2) with 1, 2, 3; batch 3 its day (both 3s) with 1, 2, 3.
    expect(p.ids()).toEqual([1, 1, 1, 2, 2, 3]);

    p.exec("insert into input_model (id, event_time) values (4, '2020-01-04 00:00:00'), (5, '2020-01-05 00:00:00')");
    await built(p, '2020-01-03 14:57:00', only('microbatch_model'));
    // Same "now" as before, yet 4 and 5 are in: nothing filtered them out.
    expect(distinct(p.ids())).toEqual([1, 2, 3, 4, 5]);
  });

  it("parsing warns once per invocation that the microbatch model has no 'ref' or 'source' input with an 'event_time' configuration (dbt's MicrobatchModelNoEventTimeInputs), and not when an input declares it", () => {
    const without = project({ 'models/input_model.sql': INPUT.replace(", event_time='event_time'", ''), 'models/microbatch_model.sql': MICROBATCH });
    const r = dbt(without, 'run', ...at('2020-01-03 13:57:00'));
    ok(r);
    expect(r.stderr.match(/The microbatch model 'microbatch_model' has no 'ref' or 'source' input with an 'event_time' configuration/g)).toHaveLength(1);
    const silenced = dbt(without, 'run', '--warn-error-options', '{silence: [MicrobatchModelNoEventTimeInputs]}', ...at('2020-01-03 13:57:00'));
    ok(silenced);
    expect(silenced.stderr).not.toContain('has no \'ref\' or \'source\' input');
    const withInput = project({ 'models/input_model.sql': INPUT, 'models/microbatch_model.sql': MICROBATCH });
    const quiet = dbt(withInput, 'run', ...at('2020-01-03 13:57:00'));
    ok(quiet);
    expect(quiet.stderr).not.toContain("has no 'ref' or 'source' input");
  });
});

describeEachEngine("ref('x').render() opts out of the filter (TestMicrobatchUsingRefRenderSkipsFilter)", (engine) => {
  const project = projectOn(engine);
  it('filtered, rows after the last batch stay out; after switching to .render(), the same run reads them', async () => {
    const p = project({ 'models/input_model.sql': INPUT, 'models/microbatch_model.sql': MICROBATCH });
    await built(p, '2020-01-03 13:57:00');
    expect(p.ids()).toEqual([1, 2, 3]);
    await built(p, '2020-01-03 14:57:00');
    expect(p.ids()).toEqual([1, 2, 3]);

    p.exec("insert into input_model (id, event_time) values (4, '2020-01-04 00:00:00'), (5, '2020-01-05 00:00:00')");
    await built(p, '2020-01-03 14:57:00', only('microbatch_model'));
    expect(p.ids()).toEqual([1, 2, 3]);

    p.write('models/microbatch_model.sql', `${CONFIG}\nselect * from {{ ref('input_model').render() }}\n`);
    await built(p, '2020-01-03 14:57:00', only('microbatch_model'));
    expect(distinct(p.ids())).toEqual([1, 2, 3, 4, 5]);
  });
});

describeEachEngine('the Jinja context of a batch (TestMicrobatchJinjaContext, TestMicrobatchJinjaContextVarsAvailable)', (engine) => {
  const project = projectOn(engine);
  for (const [where, hook] of [['in the model', ''], ['and in a pre-hook that renders to nothing (dbt\'s run_hooks skips it)', 'pre_hook="{{ check_invalid_batch_jinja_context() }}", ']] as const) {
    it(`model is a mapping, sql and compiled_code are strings, is_incremental and should_full_refresh are callable, in every batch: ${where}`, async () => {
      const p = project({
        'macros/check_batch_jinja_context.sql': CONTEXT_CHECK,
        'models/input_model.sql': INPUT,
        'models/microbatch_model.sql': `{{ config(${hook}materialized='incremental', incremental_strategy='microbatch', unique_key='id', event_time='event_time', batch_size='day', begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0)) }}
{{ check_invalid_batch_jinja_context() }}
select * from {{ ref('input_model') }}
`,
      });
      await built(p, '2020-01-03 13:57:00');
      expect(p.ids()).toEqual([1, 2, 3]);
    });
  }

  it('should_full_refresh() is the full_refresh config, else --full-refresh, and false in a batch that runs incrementally (dbt\'s macro and build_jinja_context_for_batch)', async () => {
    const said = "'{{ 'yes' if should_full_refresh() else 'no' }}' as refresh";
    const p = project({
      'models/input_model.sql': INPUT,
      'models/plain.sql': `{{ config(materialized='table') }}\nselect ${said}\n`,
      'models/protected.sql': `{{ config(materialized='table', full_refresh=false) }}\nselect ${said}\n`,
      'models/microbatch_model.sql': `${CONFIG}\nselect id, event_time, ${said} from {{ ref('input_model') }}\n`,
    });
    // One row in each table but the microbatch model's, whose rows come one per batch, in id order.
    const refresh = (table: string) => p.rows(`select refresh from "${table}"${table === 'microbatch_model' ? ' order by id' : ''}`).map((r) => r.refresh);
    await built(p, '2020-01-03 13:57:00');
    expect([refresh('plain'), refresh('protected'), refresh('microbatch_model')]).toEqual([['no'], ['no'], ['no', 'no', 'no']]);
    await built(p, '2020-01-03 13:57:00', { fullRefresh: true });
    // The first batch of a full refresh builds the table (not incremental); the later ones run incrementally.
    expect([refresh('plain'), refresh('protected'), refresh('microbatch_model')]).toEqual([['yes'], ['no'], ['yes', 'no', 'no']]);
  });

  it('model.batch.id names each batch while it renders (log() in the model)', () => {
    const p = project({
      'models/input_model.sql': INPUT,
      'models/microbatch_model.sql': `${CONFIG}
{% if model.batch %}
{{ log("batch.id: " ~ model.batch.id, info=True) }}
{% else %}
{{ log("no batch", info=True) }}
{% endif %}
select * from {{ ref('input_model') }}
`,
    });
    const r = dbt(p, 'run', ...at('2020-01-03 13:57:00'));
    ok(r);
    expect(r.stdout.match(/batch\.id: \d+/g)).toEqual(['batch.id: 20200101', 'batch.id: 20200102', 'batch.id: 20200103']);
  });

  it('compile runs the model\'s log() calls and prints them, outside any batch: "no batch" is printed once and no "batch.id:" line', () => {
    const p = project({
      'models/input_model.sql': INPUT,
      'models/microbatch_model.sql': `${CONFIG}
{% if model.batch %}
{{ log("batch.id: " ~ model.batch.id, info=True) }}
{% else %}
{{ log("no batch", info=True) }}
{% endif %}
select * from {{ ref('input_model') }}
`,
    });
    const r = dbt(p, 'compile', '-s', 'microbatch_model', ...at('2020-01-03 13:57:00'));
    ok(r);
    expect(r.stdout.match(/no batch/g)).toEqual(['no batch']);
    expect(r.stdout).not.toContain('batch.id:');
  });

  it.todo("model.batch.event_time_start / event_time_end are timezone-aware datetimes (log shows '2020-01-01 00:00:00+00:00', tzinfo UTC; the last batch ends at now), and model.config.__dbt_internal_microbatch_event_time_start / _end hold the same values (mini-dbt: bounds as SQL text, and the sandbox refuses the __dbt_internal names)");
});

describeEachEngine('hooks run once per model, not per batch (TestFirstBatchRunsPreHookLastBatchRunsPostHook, TestWhenOnlyOneBatchRunBothPostAndPreHooks)', (engine) => {
  const project = projectOn(engine);
  const hooked = `{{ config(
        materialized='incremental',
        incremental_strategy='microbatch',
        unique_key='id',
        event_time='event_time',
        batch_size='day',
        begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0),
        pre_hook="insert into hook_log select count(*) + 1, '{{ 'execute: ' ~ execute ~ ', pre-hook run by batch ' ~ model.batch.id }}' from hook_log",
        post_hook="insert into hook_log select count(*) + 1, '{{ 'execute: ' ~ execute ~ ', post-hook run by batch ' ~ model.batch.id }}' from hook_log",
    )
}}
select * from {{ ref('input_model') }}
`;
  // Each hook numbers its row (n), so the log reads in the order the hooks ran on either engine.
  const hookLog = (p: Project) => p.rows('select said from hook_log order by n').map((r) => r.said);

  it('four batches: the pre-hook runs with the first batch, the post-hook with the last', async () => {
    const p = project({ 'models/input_model.sql': INPUT, 'models/microbatch_model.sql': hooked });
    p.exec('create table hook_log (n integer, said text)');
    await built(p, '2020-01-04 13:57:00');
    expect(hookLog(p)).toEqual(['execute: True, pre-hook run by batch 20200101', 'execute: True, post-hook run by batch 20200104']);
    expect(p.ids()).toEqual([1, 2, 3]);
  });

  it('one batch: both hooks run, with that batch', async () => {
    const p = project({ 'models/input_model.sql': INPUT, 'models/microbatch_model.sql': hooked });
    p.exec('create table hook_log (n integer, said text)');
    await built(p, '2020-01-01 13:57:00');
    expect(hookLog(p)).toEqual(['execute: True, pre-hook run by batch 20200101', 'execute: True, post-hook run by batch 20200101']);
    expect(p.ids()).toEqual([1]);
  });
});
