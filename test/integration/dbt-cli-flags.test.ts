import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/api/run.js';
import { runCli } from '../support/run-cli.js';
import { succeedingRun } from '../support/succeeding-run.js';
import { miniProject } from '../support/strategy-project.js';

/**
 * dbt's command-line flags through the built CLI: -m/--models, --empty,
 * --fail-fast, --threads and the global flags (before or after the command).
 */
const FILES = {
  'seeds/countries.csv': 'code,name\nfr,France\nde,Germany\n',
  'models/stg_events.sql': "{{ config(materialized='view') }}\nselect id, kind, occurred_at from {{ source('raw', 'events') }}\n",
  'models/kinds.sql': "{{ config(materialized='ephemeral') }}\nselect distinct kind from {{ ref('stg_events') }}\n",
  'models/events_by_kind.sql': "{{ config(materialized='table') }}\nselect k.kind, count(e.id) as n\nfrom {{ ref('kinds') }} as k\njoin {{ ref('stg_events') }} as e on e.kind = k.kind\ngroup by k.kind\n",
  'models/events_inc.sql': "{{ config(materialized='incremental', unique_key='id') }}\nselect id, kind from {{ ref('stg_events') }}\n{% if is_incremental() %}where id > (select coalesce(max(id), 0) from {{ this }}){% endif %}\n",
  'models/country_names.sql': "select code, name from {{ ref('countries') }}\n",
};

function setup(extra: Record<string, string> = {}) {
  const p = miniProject({ ...FILES, ...extra });
  p.exec(`create table events (id integer, kind text, occurred_at text);
    insert into events values (1, 'click', '2024-01-01'), (2, 'view', '2024-01-02'), (3, 'click', '2024-01-03');`);
  const cli = (...args: string[]) => runCli([...args, '--project-dir', p.dir]);
  return { p, cli };
}

/** A model that fails at run time. */
const BROKEN = "{{ config(materialized='table') }}\nselect * from no_such_table\n";

/** The progress lines of a run (`N of M START|OK|ERROR|SKIP ...`). */
const progress = (stdout: string) => stdout.split('\n').filter((l) => /\d+ of \d+ (START|OK|ERROR|SKIP|PASS|FAIL|WARN)/.test(l));

describe('-m / --models (dbt\'s older --select)', () => {
  it('select like --select on run, build, seed, test, compile and ls; ls --models keeps only models, as dbt does', () => {
    const { p, cli } = setup();
    expect(cli('seed', '-m', 'countries').code).toBe(0);
    const run = cli('run', '-m', 'country_names');
    expect(run.code, run.stderr).toBe(0);
    expect(progress(run.stdout).filter((l) => l.includes('START'))).toHaveLength(1);
    expect(p.rows('country_names')).toHaveLength(2);
    const both = cli('run', '--models', 'stg_events', '--model', 'events_by_kind');
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain('Done. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2');
    // joins --select's selectors
    expect(cli('run', '-s', 'stg_events', '-m', 'country_names').stdout).toContain('TOTAL=2');
    expect(cli('build', '-m', 'country_names').code).toBe(0);
    expect(cli('compile', '-m', 'country_names').stdout).toContain('"countries"');
    expect(cli('ls', '-m', 'countries+').stdout.trim().split('\n')).toEqual(['shop.country_names']);
    expect(cli('ls', '-s', 'countries+').stdout.trim().split('\n')).toEqual(['shop.countries', 'shop.country_names']);
    const mixed = cli('ls', '-m', 'countries', '-s', 'countries');
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--models and --select cannot be combined on ls');
  });
});

describe('--empty', () => {
  it('builds every relation with its columns and no rows: refs and sources read as limit-0 subqueries, `this` does not', async () => {
    const { p, cli } = setup();
    await succeedingRun(p.dir, { command: 'seed' });
    const first = cli('run', '--empty');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    for (const table of ['stg_events', 'events_by_kind', 'events_inc', 'country_names']) expect(p.rows(table), table).toEqual([]);
    expect(p.columns('events_by_kind').map((c) => c.name)).toEqual(['kind', 'n']);
    expect(p.columns('events_inc').map((c) => c.name)).toEqual(['id', 'kind']);
    expect(p.columns('country_names').map((c) => c.name)).toEqual(['code', 'name']);
    // dbt's rendering, without an alias (SQLite needs none), so `ref('x') as k` still works.
    const compiled = readFileSync(join(p.dir, 'target/run/shop/models/events_by_kind.sql'), 'utf8');
    expect(compiled).toContain('(select * from __dbt__cte__kinds where false limit 0) as k');
    expect(compiled).toContain('(select * from "main"."stg_events" where false limit 0) as e');
    // compile (and run --dry-run) show the same rendering.
    expect(cli('compile', '--empty', '-s', 'country_names').stdout).toContain('from (select * from "main"."countries" where false limit 0)');
    expect(cli('run', '--dry-run', '--empty', '-s', 'country_names').stdout).toContain('from (select * from "main"."countries" where false limit 0)');
    expect(cli('compile', '-s', 'country_names').stdout).not.toContain('limit 0');
    // The ledger records the builds, with no partitions, saying why they wrote no rows.
    expect(p.ledger('events_inc').at(-1)).toMatchObject({ status: 'success', rows_inserted: 0 });
    expect(String(p.ledger('events_inc').at(-1)!.reason)).toContain('--empty');

    // A normal run fills them; then an incremental model under --empty keeps its rows (`this` is not limited).
    await succeedingRun(p.dir);
    expect(p.rows('events_inc')).toHaveLength(3);
    expect(p.rows('events_by_kind')).toHaveLength(2);
    p.exec("insert into events values (4, 'view', '2024-01-04')");
    const again = cli('run', '--empty', '-s', 'events_inc', 'events_by_kind');
    expect(again.code, again.stdout).toBe(0);
    expect(p.rows('events_inc')).toHaveLength(3);
    expect(p.rows('events_by_kind')).toEqual([]);
    // The seed table, the source and build's tests: a test reads its model as empty too.
    expect(p.rows('countries')).toHaveLength(2);
    const build = cli('build', '--empty');
    expect(build.code, build.stdout).toBe(0);
    expect(p.rows('countries')).toEqual([]); // seeds load with no rows, as dbt 1.12's build --empty does
  });

  it('a microbatch model builds its batches empty and the ledger records none of them as built', () => {
    const { p, cli } = setup({
      'models/sources.yml': 'sources:\n  - name: raw\n    tables:\n      - name: events\n        event_time: occurred_at\n',
      'models/daily.sql': "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='day', batch_size='day', begin='2024-01-01') }}\nselect date(occurred_at) as day, count(*) as n from {{ source('raw', 'events') }} group by 1\n",
    });
    const empty = cli('run', '--empty', '-s', 'daily', '--vars', '{as_of: 2024-01-03}');
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(p.rows('daily')).toEqual([]);
    expect(p.columns('daily').map((c) => c.name)).toEqual(['day', 'n']);
    expect(p.ledger('daily').length).toBeGreaterThan(0);
    // As in dbt, the limited subquery is inside the batch filter.
    expect(readFileSync(join(p.dir, 'target/run/shop/models/daily.sql'), 'utf8')).toContain('from (select * from (select * from "main"."events" where false limit 0) where "occurred_at" >=');
    // No batch is recorded as built (fill_gaps and the gap report still see them missing) ...
    const batches = () => p.rows('_mini_dbt_partitions').filter((r) => r.model === 'daily').map((r) => r.partition);
    expect(batches()).toEqual([]);
    // ... until a normal run builds them.
    expect(cli('run', '-s', 'daily', '--full-refresh', '--vars', '{as_of: 2024-01-03}').code).toBe(0);
    expect(batches()).toEqual(['2024-01-01', '2024-01-02', '2024-01-03']);
    expect(p.rows('daily')).toHaveLength(3);
  });
});

describe('--fail-fast / -x', () => {
  const FAILING = { 'models/a_broken.sql': BROKEN, 'models/b_ok.sql': 'select 1 as x\n', 'models/c_ok.sql': 'select 2 as x\n' };

  it('the first failure skips every node not yet started (exit 1, counted SKIP); without it the rest runs', () => {
    const { p, cli } = setup(FAILING);
    const all = cli('run', '-s', 'a_broken', 'b_ok', 'c_ok');
    expect(all.code).toBe(1);
    expect(all.stdout).toContain('Done. PASS=2 WARN=0 ERROR=1 SKIP=0 TOTAL=3');
    for (const args of [['run', '-x'], ['run', '--fail-fast'], ['--fail-fast', 'run']]) {
      const r = cli(...args, '-s', 'a_broken', 'b_ok', 'c_ok');
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toContain('Done. PASS=0 WARN=0 ERROR=1 SKIP=2 TOTAL=3');
      expect(r.stdout).toMatch(/2 of 3 SKIP relation main\.b_ok/);
      expect(r.stdout).not.toMatch(/START sql view model main\.b_ok/);
    }
    const results = JSON.parse(readFileSync(join(p.dir, 'target/run_results.json'), 'utf8')) as { results: { unique_id: string; status: string; message: string }[] };
    expect(results.results.map((r) => r.status)).toEqual(['error', 'skipped', 'skipped']);
    expect(results.results[1]!.message).toContain('--fail-fast');
  });
});

describe('--fail-fast on build', () => {
  it('a failing data test stops the build too: what was not started is skipped', () => {
    const { cli } = setup({
      'models/a_first.sql': "select 1 as id union all select null\n",
      'models/z_last.sql': 'select 2 as x\n',
      'models/schema.yml': 'models:\n  - name: a_first\n    columns:\n      - name: id\n        data_tests: [not_null]\n',
    });
    const r = cli('build', '-x', '-s', 'a_first', 'z_last');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL 1 not_null_a_first_id/);
    expect(r.stdout).toContain('Done. PASS=1 WARN=0 ERROR=1 SKIP=1 TOTAL=3');
    expect(cli('build', '-s', 'a_first', 'z_last').stdout).toContain('Done. PASS=2 WARN=0 ERROR=1 SKIP=0 TOTAL=3');
  });
});

describe('--threads', () => {
  it('is accepted as a whole number from 1 (builds run one at a time) and refused otherwise (exit 2)', () => {
    const { cli } = setup();
    expect(cli('seed', '--threads', '4').code).toBe(0);
    for (const command of [['run'], ['build'], ['test'], ['compile'], ['retry']]) expect(cli(...command, '--threads', '4').code, command.join(' ')).toBe(0);
    for (const bad of ['0', '-1', 'two', '1.5']) {
      const r = cli('run', '--threads', bad);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(`option '--threads <n>' argument '${bad}' is invalid. It must be a whole number of threads from 1.`);
    }
    expect(runCli(['run', '--help']).stdout).toContain('one node at a time');
    const help = runCli(['--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('work before or after the command');
    expect(help).toContain('without effect: --[no-]send-anonymous-usage-stats, --[no-]write-json');
    expect(help).toContain('--no-version-check skip that check');
  });
});

describe('global flags, before or after the command', () => {
  it('-q / --quiet hides everything but errors; failures still show', async () => {
    const { p, cli } = setup({ 'models/a_broken.sql': BROKEN });
    await succeedingRun(p.dir, { command: 'seed' });
    for (const args of [['-q', 'run', '-s', 'country_names'], ['run', '-s', 'country_names', '--quiet'], ['--log-level', 'error', 'run', '-s', 'country_names'], ['run', '-s', 'country_names', '--log-level', 'none']]) {
      const r = cli(...args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    const failing = cli('--quiet', 'run', '-s', 'a_broken');
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('ERROR creating sql table model main.a_broken');
    expect(failing.stdout).toContain('Failure in model a_broken');
    expect(failing.stdout).not.toContain('START');
    expect(failing.stdout).not.toContain('Done.');
    // ls prints its answer under --quiet (it is the output, not a log line).
    expect(cli('-q', 'ls', '-s', 'country_names').stdout.trim()).toBe('shop.country_names');
  });

  it('--log-format json prints one JSON object a line (info.name, level, msg, ts), before or after the command', async () => {
    const { p, cli } = setup({ 'models/a_broken.sql': BROKEN });
    await succeedingRun(p.dir, { command: 'seed' });
    for (const args of [['--log-format', 'json', 'run'], ['run', '--log-format', 'json']]) {
      const r = cli(...args);
      expect(r.code).toBe(1);
      const lines = r.stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThan(5);
      const events = lines.map((l) => JSON.parse(l) as { info: { name: string; level: string; msg: string; ts: string } });
      for (const e of events) {
        expect(e.info.ts).toMatch(/^\d{4}-\d\d-\d\dT/);
        expect(['debug', 'info', 'warn', 'error']).toContain(e.info.level);
      }
      expect(events.find((e) => e.info.name === 'StatsLine')?.info.msg).toMatch(/^Done\. PASS=\d+ WARN=0 ERROR=1/);
      expect(events.find((e) => e.info.msg.includes('ERROR creating'))?.info.level).toBe('error');
      expect(events.some((e) => e.info.name === 'LogStartLine')).toBe(true);
    }
    const debug = cli('--log-format', 'debug', 'ls', '-s', 'country_names');
    expect(debug.code).toBe(0);
    const run = cli('run', '-s', 'country_names', '--log-format', 'debug');
    expect(run.stdout.split('\n')[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} \[info \] \[MainThread\]: Running with mini-dbt=/);
  });

  it('--no-partial-parse neither reads nor writes target/partial_parse.json', () => {
    const { p, cli } = setup();
    const cache = join(p.dir, 'target/partial_parse.json');
    rmSync(cache, { force: true }); // written by the fixture's own load
    expect(cli('--no-partial-parse', 'ls').code).toBe(0);
    expect(existsSync(cache)).toBe(false);
    expect(cli('ls', '--no-partial-parse').code).toBe(0);
    expect(existsSync(cache)).toBe(false);
    mkdirSync(join(p.dir, 'target'), { recursive: true });
    writeFileSync(cache, 'not json');
    const r = cli('ls', '--no-partial-parse');
    expect(r.stderr).toBe(''); // a read would warn about the corrupt file
    expect(readFileSync(cache, 'utf8')).toBe('not json');
    rmSync(cache);
    expect(cli('ls', '--partial-parse').code).toBe(0);
    expect(existsSync(cache)).toBe(true);
  });

  it('--use-colors forces colors in a pipe, --no-use-colors turns them off; --printer-width sets the line width', async () => {
    const { p, cli } = setup();
    await succeedingRun(p.dir, { command: 'seed' });
    const colored = runCli(['run', '-s', 'country_names', '--use-colors', '--project-dir', p.dir], { env: { NO_COLOR: '' } });
    expect(colored.stdout).toContain('\u001b[32m');
    expect(cli('--no-use-colors', 'run', '-s', 'country_names').stdout).not.toContain('\u001b[');
    const wide = cli('run', '-s', 'country_names', '--printer-width', '120');
    const start = wide.stdout.split('\n').find((l) => l.includes('START'))!;
    expect(start.slice(10).length).toBe(120 + ' [RUN]'.length);
    expect(cli('run', '--printer-width', '0').code).toBe(2);
  });

  it('--warn-error-options {include: all} is --warn-error; --debug, --no-version-check and the usage-stats flags are accepted', async () => {
    const { p, cli } = setup({
      'models/schema.yml': 'models:\n  - name: country_names\n    columns:\n      - name: code\n        data_tests:\n          - accepted_values:\n              values: [fr]\n              config:\n                severity: warn\n',
    });
    await succeedingRun(p.dir, { command: 'seed' });
    // the build's accepted_values test warns (severity warn): exit 0 all the same
    const build = await run({ projectDir: p.dir, command: 'build', writeArtifacts: false });
    expect(build.results.filter((r) => r.status !== 'success').map((r) => `${r.name}: ${r.status}`)).toEqual([expect.stringMatching(/^accepted_values_country_names_code.*: warn$/)]);
    expect(build.exitCode).toBe(0);
    for (const args of [['--warn-error', 'test'], ['test', '--warn-error'], ['--warn-error-options', '{include: all}', 'test'], ['test', '--warn-error-options', '{"include": ["LogTestResult"]}']]) {
      expect(cli(...args).code, args.join(' ')).toBe(1);
    }
    expect(cli('test', '--warn-error-options', '{include: all, exclude: [LogTestResult]}').code).toBe(0);
    const bad = cli('test', '--warn-error-options', '{includes: all}');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown key 'includes'");
    for (const args of [['--debug', 'run'], ['run', '-d'], ['--no-version-check', 'run'], ['run', '--version-check'], ['--send-anonymous-usage-stats', 'run'], ['run', '--no-send-anonymous-usage-stats'], ['--no-quiet', 'run', '--no-fail-fast']]) {
      const r = cli(...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
  });
});
