import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import { runCli, type CliResult } from '../support/run-cli.js';

/**
 * Conformance with dbt (issue 13): which batches a microbatch run builds.
 * Modelled on dbt-core's tests/functional/microbatch/test_microbatch.py
 * (TestMicrobatchCLI, TestMicrobatchCLIBuild, TestMicroBatchBoundsDefault,
 * TestMicrobatchCompiledRunPaths{,Hourly,Monthly,Yearly}, TestMicrobatchCLIRunOutputJSON,
 * TestMicrobatchFullRefreshConfigFalse, TestCanSilenceInvalidConcurrentBatchesConfigWarning),
 * its unit tests of MicrobatchBuilder (tests/unit/materializations/incremental/test_microbatch.py:
 * build_start_time with lookback, build_batches), dbt's --event-time-* flag validation
 * (core/dbt/cli/flags.py), and dbt-tests-adapter's incremental/test_incremental_microbatch.py as
 * dbt-snowflake, dbt-redshift, dbt-spark and dbt-bigquery run it.
 * dbt's tests fix "now" with patch_microbatch_end_time; mini-dbt's now is the as_of var.
 */

const INPUT = `{{ config(materialized='table', event_time='event_time') }}
select 1 as id, '2020-01-01 00:00:00' as event_time
union all select 2, '2020-01-02 00:00:00'
union all select 3, '2020-01-03 00:00:00'
`;

const microbatch = (extra = '', batchSize = 'day') => `{{ config(materialized='incremental', incremental_strategy='microbatch', unique_key='id', event_time='event_time', batch_size='${batchSize}', begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0)${extra}) }}
select * from {{ ref('input_model') }}
`;

interface ResultEntry { unique_id: string; status: string; batch_results?: { successful: [string, string][]; failed: [string, string][] } }

/** A dbt project in a temp dir, driven only through the built CLI; its warehouse is read directly (on the engine asked for). */
type Project = ConformanceProject;

const projectOn = (engine: EngineName) => (files: Record<string, string> = {}): Project =>
  conformanceProject({ 'models/input_model.sql': INPUT, 'models/microbatch_model.sql': microbatch(), ...files }, 'shop', { engine });
const at = (now: string) => ['--vars', `{as_of: "${now}"}`];
const dbt = (p: Project, ...args: string[]): CliResult => runCli([...args, '--project-dir', p.dir]);
const ok = (r: CliResult) => expect(r.code, r.stdout + r.stderr).toBe(0);
const ids = (p: Project, table = 'microbatch_model') => p.rows(table, 'id').map((r) => r.id);
const result = (p: Project, model: string): ResultEntry =>
  (JSON.parse(readFileSync(join(p.dir, 'target/run_results.json'), 'utf8')) as { results: ResultEntry[] }).results.find((r) => r.unique_id === `model.shop.${model}`)!;
/**
 * `make` once, on first use: a run that several cases only read after (what
 * it built, its run_results.json, its target/ files), shared instead of each
 * case building the same project with the same command again.
 */
const shared = <K, T>(make: (key: K) => T): ((key: K) => T) => {
  const made = new Map<K, T>();
  return (key) => {
    if (!made.has(key)) made.set(key, make(key));
    return made.get(key)!;
  };
};

describeEachEngine('run and build of a microbatch model (TestMicrobatchCLI, TestMicrobatchCLIBuild)', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  for (const command of ['run', 'build']) {
    it(`${command}: a first build runs one batch per day from begin; --event-time-start/--event-time-end with --full-refresh keeps only that range`, () => {
      const p = project();
      const first = dbt(p, command, ...at('2020-01-03 13:57:00'));
      ok(first);
      expect(ids(p)).toEqual([1, 2, 3]);
      // Two model results, three batch results (dbt counts LogModelResult and LogBatchResult events).
      expect(first.stdout.match(/\d of 2 OK created sql \w+ model/g)).toHaveLength(2);
      expect(first.stdout.match(new RegExp(String.raw`OK created batch 2020-01-0\d of ${schema}\.microbatch_model`, 'g'))).toHaveLength(3);
      expect(result(p, 'microbatch_model').status).toBe('success');
      expect(result(p, 'microbatch_model').batch_results!.successful).toHaveLength(3);

      ok(dbt(p, command, '--event-time-start', '2020-01-02', '--event-time-end', '2020-01-03', '--full-refresh', ...at('2020-01-03 13:57:00')));
      expect(ids(p)).toEqual([2]);
    });
  }

  it('--event-time-start and --event-time-end are mutually required, and the start must be before the end (dbt: a usage error before anything runs)', () => {
    const p = project();
    const onlyStart = dbt(p, 'run', '--event-time-start', '2020-01-02', ...at('2020-01-03'));
    expect(onlyStart.code).toBe(2);
    expect(onlyStart.stderr).toContain('The flag `--event-time-start` was specified, but `--event-time-end` was not.');
    const onlyEnd = dbt(p, 'run', '--event-time-end', '2020-01-02', ...at('2020-01-03'));
    expect(onlyEnd.code).toBe(2);
    expect(onlyEnd.stderr).toContain('The flag `--event-time-end` was specified, but `--event-time-start` was not.');
    const backwards = dbt(p, 'run', '--event-time-start', '2020-01-03', '--event-time-end', '2020-01-02', ...at('2020-01-03'));
    expect(backwards.code).toBe(2);
    expect(p.columns('input_model')).toEqual([]); // nothing ran
  });
});

describeEachEngine('an incremental run builds the current batch and the lookback before it (TestMicroBatchBoundsDefault, dbt-tests-adapter BaseMicrobatch)', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  // The three variants as three microbatch models of one project (the dates variant on an input model of its
  // own), built by the same five runs: each case reads its model's rows after every run.
  const variants: [string, string, string][] = [
    ['unique_key id', 'microbatch_model', microbatch()],
    // dbt-snowflake, dbt-redshift and dbt-spark run BaseMicrobatch without a unique_key.
    ['no unique_key (dbt-snowflake, dbt-redshift, dbt-spark)', 'microbatch_no_key', microbatch().replace("unique_key='id', ", '')],
    // dbt-bigquery's TestBigQueryMicrobatchInputWithDate: event_time holds dates.
    ['event_time holding dates (dbt-bigquery InputWithDate)', 'microbatch_dates', microbatch().replace("ref('input_model')", "ref('input_dates')")],
  ];
  const models = variants.map(([, model]) => model);
  const runs = shared(() => {
    const p = project({ 'models/input_dates.sql': INPUT.replace(/ 00:00:00/g, ''), ...Object.fromEntries(variants.map(([, model, sql]) => [`models/${model}.sql`, sql])) });
    const seen: Record<string, number[]>[] = [];
    const step = (...args: string[]) => {
      ok(dbt(p, ...args));
      seen.push(Object.fromEntries(models.map((m) => [m, ids(p, m) as number[]])));
    };
    step('run', ...at('2020-01-03 13:57:00'));
    // Same day, no new data: same rows.
    step('run', ...at('2020-01-03 14:57:00'));
    p.exec("insert into input_model (id, event_time) values (4, '2020-01-04 00:00:00'), (5, '2020-01-05 00:00:00')");
    p.exec("insert into input_dates (id, event_time) values (4, '2020-01-04'), (5, '2020-01-05')");
    const inputs = { input_model: ids(p, 'input_model'), input_dates: ids(p, 'input_dates') };
    // Same "now": the new days are after the last batch.
    step('run', '--select', ...models, ...at('2020-01-03 14:57:00'));
    step('run', '--select', ...models, ...at('2020-01-04 14:57:00'));
    step('run', '--select', ...models, ...at('2020-01-05 14:57:00'));
    return { seen, inputs };
  });
  for (const [label, model] of variants) {
    it(`${label}: rows landing later are picked up only as "now" moves into their day`, () => {
      const { seen, inputs } = runs(undefined);
      expect(inputs[model === 'microbatch_dates' ? 'input_dates' : 'input_model']).toEqual([1, 2, 3, 4, 5]);
      expect(seen.map((after) => after[model])).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]]);
    });
  }
});

describeEachEngine('lookback (dbt MicrobatchBuilder.build_start_time): the batches an incremental run rebuilds', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  // The input carries a version per row; after the first build every row gets version 2, and the rows a rerun
  // picks up show exactly which batches it rebuilt.
  const VERSIONED = `{{ config(materialized='table', event_time='event_time') }}
select id, event_time, version from {{ source('raw', 'events') }}
`;
  const versioned = (lookback: number, batchSize = 'day') => project({
    'models/input_model.sql': VERSIONED,
    'models/sources.yml': 'sources:\n  - name: raw\n    schema: "{{ target.schema }}"\n    tables:\n      - name: events\n',
    'models/microbatch_model.sql': microbatch(`, lookback=${lookback}`, batchSize),
  });
  const seed = (p: Project, times: string[]) => {
    p.exec(`create table events (id integer, event_time text, version integer);
      insert into events values ${times.map((t, i) => `(${i + 1}, '${t}', 1)`).join(', ')};`);
  };
  const days = ['2020-01-01 10:00:00', '2020-01-02 10:00:00', '2020-01-03 10:00:00', '2020-01-04 10:00:00', '2020-01-05 10:00:00'];
  const rebuilt = (p: Project) => p.rows('microbatch_model', 'id').filter((r) => r.version === 2).map((r) => r.id);

  const rebuiltIn = (p: Project, model: string) => p.rows(model, 'id').filter((r) => r.version === 2).map((r) => r.id);
  // Lookbacks 0, 1 and 3 as three models of one project, built by the same two runs.
  const lookbacks = [[0, [5]], [1, [4, 5]], [3, [2, 3, 4, 5]]] as const;
  const lookbackRuns = shared(() => {
    const p = versioned(0);
    rmSync(join(p.dir, 'models/microbatch_model.sql'));
    for (const [lookback] of lookbacks) p.write(`models/microbatch_lookback_${lookback}.sql`, microbatch(`, lookback=${lookback}`));
    seed(p, days);
    ok(dbt(p, 'run', ...at('2020-01-05 13:57:00')));
    const first = Object.fromEntries(lookbacks.map(([lookback]) => [lookback, ids(p, `microbatch_lookback_${lookback}`)]));
    p.exec('update events set version = 2');
    ok(dbt(p, 'run', ...at('2020-01-05 13:57:00')));
    return { p, first };
  });
  for (const [lookback, expected] of lookbacks) {
    it(`lookback=${lookback}: the current day and ${lookback} before it`, () => {
      const { p, first } = lookbackRuns(undefined);
      expect(first[lookback]).toEqual([1, 2, 3, 4, 5]);
      expect(rebuiltIn(p, `microbatch_lookback_${lookback}`)).toEqual(expected);
    });
  }

  it('a "now" exactly on a batch boundary ends the run there: the batch before it is the current one (lookback 0 reruns 2020-01-04 only)', () => {
    const p = versioned(0);
    seed(p, days);
    ok(dbt(p, 'run', ...at('2020-01-05 13:57:00')));
    p.exec('update events set version = 2');
    ok(dbt(p, 'run', ...at('2020-01-05 00:00:00')));
    expect(rebuilt(p)).toEqual([4]);
  });

  it('hour batches: lookback 1 at 13:57 reruns the 12:00 and 13:00 batches', () => {
    const p = versioned(1, 'hour');
    seed(p, ['2020-01-01 11:30:00', '2020-01-01 12:30:00', '2020-01-01 13:30:00']);
    ok(dbt(p, 'run', ...at('2020-01-01 13:57:00')));
    expect(ids(p)).toEqual([1, 2, 3]);
    p.exec('update events set version = 2');
    ok(dbt(p, 'run', ...at('2020-01-01 13:57:00')));
    expect(rebuilt(p)).toEqual([2, 3]);
  });

  it.todo('an incremental run\'s lookback may reach before begin (dbt does not clamp build_start_time to begin): begin 2020-01-02, run at 2020-01-02 13:57, again at 14:57 with lookback 1 writes the 2020-01-01 row');
});

describeEachEngine('batch_size hour, day, month and year (TestMicrobatchCompiledRunPaths{,Hourly,Monthly,Yearly})', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  // The first build at 2020-01-03 13:57 of a model of each batch size: its batches and its target/ files are read by two cases each.
  const firstBuild = shared((size: string) => {
    const p = project({ 'models/microbatch_model.sql': microbatch('', size) });
    return { p, run: dbt(p, 'run', ...at('2020-01-03 13:57:00')) };
  });
  for (const [size, count, last] of [['hour', 62, '2020-01-03 13:00:00'], ['month', 1, '2020-01-01'], ['year', 1, '2020-01-01']] as const) {
    it(`${size}: a first build at 2020-01-03 13:57 runs ${count} batch${count === 1 ? '' : 'es'} from begin, the last starting ${last}`, () => {
      const { p, run } = firstBuild(size);
      ok(run);
      expect(ids(p)).toEqual([1, 2, 3]);
      const batches = result(p, 'microbatch_model').batch_results!.successful;
      expect(batches).toHaveLength(count);
      expect(batches.at(-1)![0]).toBe(last);
    });
  }

  it.todo("an event_time written with a UTC offset is compared as a time, not as text (dbt-snowflake TestSnowflakeMicrobatchConvertsStartEndTimeToTimestamp: '2020-01-03 00:37:00+01:00' is 2020-01-02 23:37 UTC, so the hour batch [2020-01-03 00:00, 01:00) writes no row; mini-dbt's text comparison writes it)");

  for (const [size, files] of [
    ['day', ['microbatch_model_2020-01-01.sql', 'microbatch_model_2020-01-02.sql', 'microbatch_model_2020-01-03.sql']],
    ['hour', ['microbatch_model_2020-01-03T13.sql']],
    ['month', ['microbatch_model_2020-01.sql']],
    ['year', ['microbatch_model_2020.sql']],
  ] as const) {
    it(`${size}: each batch's SQL is written to target/compiled and target/run under models/microbatch_model/, named by its batch (${files.at(-1)})`, () => {
      const { p, run } = firstBuild(size);
      ok(run);
      for (const kind of ['compiled', 'run']) {
        for (const file of files) {
          const text = readFileSync(join(p.dir, 'target', kind, 'shop', 'models', 'microbatch_model', file), 'utf8');
          expect(text, `${kind}/${file}`).toContain('input_model');
        }
      }
      // The batch's own SELECT, filtered to its window.
      const last = readFileSync(join(p.dir, 'target/compiled/shop/models/microbatch_model', files.at(-1)!), 'utf8');
      expect(last).toContain(size === 'hour' ? "'2020-01-03 13:00:00'" : size === 'day' ? "'2020-01-03'" : "'2020-01-01'");
    });
  }
});

describeEachEngine('full_refresh: false on a microbatch model (TestMicrobatchFullRefreshConfigFalse)', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  it('--full-refresh runs it incrementally and warns; without the config, --full-refresh rebuilds every batch from begin', () => {
    const p = project({
      'models/microbatch_model.sql': microbatch(', full_refresh=False'),
      'models/downstream_model.sql': "select * from {{ ref('microbatch_model') }}\n",
    });
    ok(dbt(p, 'run', '--event-time-start', '2020-01-02', '--event-time-end', '2020-01-03 13:57:00', ...at('2020-01-03 13:57:00')));
    expect(ids(p)).toEqual([2, 3]);
    // Nothing new: same rows.
    ok(dbt(p, 'run', ...at('2020-01-03 13:57:00')));
    expect(ids(p)).toEqual([2, 3]);
    // --full-refresh does not pick up 2020-01-01: the model's full_refresh: false wins.
    const protectedRun = dbt(p, 'run', '--full-refresh', ...at('2020-01-03 13:57:00'));
    ok(protectedRun);
    expect(ids(p)).toEqual([2, 3]);
    expect(protectedRun.stdout + protectedRun.stderr).toContain('microbatch_model has full_refresh: false, so --full-refresh runs it incrementally');

    p.write('models/microbatch_model.sql', microbatch());
    ok(dbt(p, 'run', '--full-refresh', ...at('2020-01-03 13:57:00')));
    expect(ids(p)).toEqual([1, 2, 3]);
  });
});

describeEachEngine("a project's own get_incremental_microbatch_sql (TestMicrobatchCustomUserStrategy*)", (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  it.todo('a macro get_incremental_microbatch_sql in macros/ replaces the built-in microbatch statements: by default (flags.require_batched_execution_for_custom_microbatch_strategy false) the model runs once, unbatched, through it, with a deprecation warning; with the flag true, once per batch (its log line appears, and "START batch"); mini-dbt ignores the macro');
});

describeEachEngine('list --output json (TestMicrobatchCLIRunOutputJSON)', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  it("a microbatch model's config in `ls --output json` carries begin as dbt writes it (config.begin == '2020-01-01T00:00:00')", () => {
    const p = project();
    const ls = dbt(p, 'ls', '-s', 'microbatch_model', '--output', 'json');
    ok(ls);
    const node = JSON.parse(ls.stdout.trim()) as { config: Record<string, unknown> };
    expect(node.config).toMatchObject({ materialized: 'incremental', incremental_strategy: 'microbatch', begin: '2020-01-01T00:00:00', batch_size: 'day', event_time: 'event_time' });
  });
});

describeEachEngine('begin after "now"', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  it('a first build whose begin is after now still builds one (empty) batch, as dbt\'s build_batches always yields one: the table exists with no rows and a view on it can be queried', () => {
    const p = project({ 'models/downstream.sql': "{{ config(materialized='view') }}\nselect count(*) as n from {{ ref('microbatch_model') }}\n" });
    const first = dbt(p, 'run', ...at('2019-12-30 10:00:00'));
    ok(first);
    expect(ids(p)).toEqual([]);
    expect(p.columns('microbatch_model')).toEqual(['id', 'event_time']);
    expect(p.rows('downstream', 'n')).toEqual([{ n: 0 }]);
    // Once "now" passes begin, an incremental run builds its lookback batches as usual.
    ok(dbt(p, 'run', ...at('2020-01-02 13:57:00')));
    expect(ids(p)).toEqual([1, 2]);
  });
});

describeEachEngine('concurrent_batches (TestCanSilenceInvalidConcurrentBatchesConfigWarning)', (engine) => {
  const project = projectOn(engine);
  const schema = engine === 'postgres' ? 'public' : 'main';
  // The first run of a model with concurrent_batches=true: its rows and its warning are read by both cases.
  const firstRun = shared(() => {
    const p = project({ 'models/microbatch_model.sql': microbatch(', concurrent_batches=true') });
    return { p, r: dbt(p, 'run', ...at('2020-01-03 13:57:00')) };
  });
  it('concurrent_batches=true is accepted; the batches run one after another and build the same rows', () => {
    const { p, r } = firstRun(undefined);
    ok(r);
    expect(ids(p)).toEqual([1, 2, 3]);
    expect(r.stdout.match(/Batch \d of 3 OK created batch/g)).toHaveLength(3);
  });

  it('concurrent_batches=true warns once that the adapter (SQLite) cannot run batches concurrently (dbt\'s InvalidConcurrentBatchesConfig), and --warn-error-options "{silence: [InvalidConcurrentBatchesConfig]}" silences it', () => {
    const { p, r } = firstRun(undefined);
    ok(r);
    // dbt-postgres does not declare MicrobatchConcurrency either: dbt warns on both.
    expect(r.stderr.match(new RegExp(`Found 1 microbatch model with the \`concurrent_batches\` config set to true, but the ${engine} adapter does not support running batches concurrently`, 'g'))).toHaveLength(1);
    const silenced = dbt(p, 'run', '--warn-error-options', '{silence: [InvalidConcurrentBatchesConfig]}', ...at('2020-01-03 13:57:00'));
    ok(silenced);
    expect(silenced.stderr).not.toContain('concurrent_batches');
  });
});
