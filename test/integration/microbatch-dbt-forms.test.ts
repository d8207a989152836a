/**
 * Microbatch models and calls written as dbt projects write them (dbt-core's
 * tests/functional/microbatch/ are the reference): begin as a Python datetime,
 * model.batch.id in dbt's format, model.batch outside a batch, dbt's summary
 * line for a partial success, and trailing commas in calls and literals.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/api/session.js';
import { renderModel } from '../../src/compile/render-model.js';
import { runCli } from '../support/run-cli.js';
import { miniProject } from '../support/strategy-project.js';

const SOURCES = `sources:
  - name: raw
    tables:
      - name: events
        event_time: event_time
`;

/** dbt's microbatch test model: begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0), and the batch id in a column. */
const model = (batchSize = 'day', begin = 'modules.datetime.datetime(2020, 1, 1, 0, 0, 0)') => `{{ config(materialized='incremental', incremental_strategy='microbatch', unique_key='id', event_time='event_time', batch_size='${batchSize}', begin=${begin}) }}
select id, event_time, '{{ model.batch.id }}' as batch_id from {{ source('raw', 'events') }}
`;

function setup(files: Record<string, string>) {
  const p = miniProject({ 'models/sources.yml': SOURCES, ...files });
  p.exec(`create table events (id integer, event_time text, payload text);
    insert into events values (1, '2020-01-01 00:00:00', '{"n": 1}'), (2, '2020-01-02 00:00:00', '{"n": 2}'), (3, '2020-01-03 00:00:00', '{"n": 3}');`);
  return p;
}

describe('microbatch as dbt projects write it', () => {
  it('begin=modules.datetime.datetime(2020, 1, 1, 0, 0, 0) builds every day from 2020-01-01, and model.batch.id is 20200101-style', async () => {
    const p = setup({ 'models/m.sql': model() });
    const r = await p.buildOk({ vars: { as_of: '2020-01-03' }, writeArtifacts: true });
    // manifest.json writes the datetime as dbt does.
    expect(JSON.parse(readFileSync(join(p.dir, 'target', 'manifest.json'), 'utf8')).nodes['model.shop.m'].config.begin).toBe('2020-01-01T00:00:00');
    // The batch labels (logs, ledger, run_results) stay dbt's format_batch_start; model.batch.id is dbt's batch_id.
    expect(r.results[0]!.plan!.batches!.map((b) => b.label)).toEqual(['2020-01-01', '2020-01-02', '2020-01-03']);
    expect(p.rows('m')).toEqual([
      { id: 1, event_time: '2020-01-01 00:00:00', batch_id: '20200101' },
      { id: 2, event_time: '2020-01-02 00:00:00', batch_id: '20200102' },
      { id: 3, event_time: '2020-01-03 00:00:00', batch_id: '20200103' },
    ]);
    expect(p.ledger('m').map((l) => l.window_start)).toEqual(['2020-01-01', '2020-01-02', '2020-01-03']);
    // A later run rebuilds the lookback batch only, ids as before.
    p.exec("insert into events values (4, '2020-01-04 10:00:00', '{}')");
    await p.buildOk({ vars: { as_of: '2020-01-04' } });
    expect(p.rows('m').map((row) => row.batch_id)).toEqual(['20200101', '20200102', '20200103', '20200104']);
  });

  it('model.batch.id for hour, month and year batches, as dbt formats them (20200101T22, 202001, 2020); a date begin works too', async () => {
    const p = setup({
      'models/hourly.sql': model('hour', 'modules.datetime.datetime(2020, 1, 1, 22, 0, 0)'),
      'models/monthly.sql': model('month'),
      'models/yearly.sql': model('year', 'modules.datetime.date(2020, 1, 1)'),
    });
    p.exec("insert into events values (5, '2020-01-01 22:30:00', '{}'), (6, '2020-01-01 23:00:00', '{}'), (7, '2020-02-10', '{}')");
    await p.buildOk({ vars: { as_of: '2020-02-10' }, select: ['monthly', 'yearly'] });
    expect(p.rows('monthly').map((row) => [row.id, row.batch_id])).toEqual([[1, '202001'], [2, '202001'], [3, '202001'], [5, '202001'], [6, '202001'], [7, '202002']]);
    expect(new Set(p.rows('yearly').map((row) => row.batch_id))).toEqual(new Set(['2020']));
    await p.buildOk({ vars: { as_of: '2020-01-01' }, select: ['hourly'] });
    expect(p.rows('hourly').map((row) => [row.id, row.batch_id])).toEqual([[5, '20200101T22'], [6, '20200101T23']]);
  });

  it('a begin that is not a date or datetime is still refused', () => {
    expect(() => setup({ 'models/m.sql': model('day', 'modules.datetime.timedelta(days=1)') })).toThrow(/must provide a 'begin' \(datetime\) config/);
  });

  it('outside a batch, model.batch.* and a missing model.config key render empty, as Jinja\'s undefined does (also inside ~)', async () => {
    const p = setup({
      'models/m.sql': model(),
      'models/plain.sql': `{{ config(materialized='table') }}
select '{{ model.batch.id }}' as id, '{{ model.batch.event_time_start }}' as start, '{{ "batch " ~ model.batch.id ~ "." }}' as said,
  '{{ model.config.missing }}' as missing, '{{ "x" ~ model.config.missing ~ "y" }}' as concatenated, '{{ model.config.materialized }}' as materialized,
  '{{ "execute: " ~ execute ~ ", none: " ~ none }}' as python_str
`,
    });
    await p.buildOk({ vars: { as_of: '2020-01-03' } });
    expect(p.rows('plain')).toEqual([{ id: '', start: '', said: 'batch .', missing: '', concatenated: 'xy', materialized: 'table', python_str: 'execute: True, none: None' }]);
    // The microbatch model rendered without a batch (compile's full-build view): empty too.
    const session = loadSession({ projectDir: p.dir });
    const sql = renderModel(session.manifest, session.manifest.models.get('m')!, { incremental: false }).sql;
    expect(sql).toContain("'' as batch_id");
  });

  it('a failed middle batch: PARTIAL SUCCESS (2/3) and "Completed with 1 partial success and 0 warnings", as dbt prints them', () => {
    const p = setup({ 'models/m.sql': model().replace("'{{ model.batch.id }}' as batch_id", "json_extract(payload, '$.n') as n") });
    p.exec("update events set payload = 'not json' where id = 2");
    const r = runCli(['run', '--vars', '{as_of: "2020-01-03"}', '--project-dir', p.dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 of 1 PARTIALLY created sql incremental model main\.m \.+ \[PARTIAL SUCCESS \(2\/3\) in/);
    expect(r.stdout).toContain('Batch 2 of 3 ERROR creating batch 2020-01-02 of main.m');
    // The whole line (after the time), no colon: dbt's EndOfRunSummary.
    expect(r.stdout).toMatch(/ {2}Completed with 1 partial success and 0 warnings\n/);
    expect(r.stdout).toContain('Done. PASS=0 WARN=0 ERROR=1 SKIP=0 TOTAL=1');
    // The failed batch wrote nothing; the others are published.
    expect(p.rows('m')).toEqual([{ id: 1, event_time: '2020-01-01 00:00:00', n: 1 }, { id: 3, event_time: '2020-01-03 00:00:00', n: 3 }]);

    // Every batch failing is an error, not a partial success (dbt's "1 error, 0 partial successes").
    p.exec("update events set payload = 'not json'");
    const all = runCli(['run', '--vars', '{as_of: "2020-01-03"}', '--full-refresh', '--project-dir', p.dir]);
    expect(all.code).toBe(1);
    expect(all.stdout).not.toContain('PARTIAL SUCCESS');
    expect(all.stdout).toContain('Completed with 1 error, 0 partial successes, and 0 warnings:');
  });
});

describe('trailing commas, as Jinja parses them', () => {
  it('in config(), ref(), source(), a macro call, list and dict literals: the models build (fast path and nunjucks)', async () => {
    const p = setup({
      'macros/cents.sql': '{% macro cents(column, scale=100) -%} cast({{ column }} * {{ scale }} as integer) {%- endmacro %}',
      // The fast path: calls with literal arguments only.
      'models/base.sql': "{{ config(materialized=\"ephemeral\",) }}\nselect id, {{ cents('id', scale=10,) }} as cents from {{ source('raw', 'events',) }}\n",
      'models/picked.sql': "{{ config(materialized='table', tags=['a', 'b',],) }}\nselect id, cents from {{ ref('base',) }} where id in ({{ [1, 3,] | join(', ',) }})\n",
      // nunjucks: a dict literal, a tuple and a nested call.
      'models/labelled.sql': "{% set names = {'a': 'one', 'b': 'three',} %}{{ config(materialized='table', meta={'owner': 'x',},) }}\nselect id, case id {% for k, n in ((1, 'a'), (3, 'b',),) %}when {{ k }} then '{{ names[n] }}' {% endfor %}end as name, {{ cents(cents('id',),) }} as big from {{ ref('picked',) }}\n",
    });
    await p.buildOk({ vars: { as_of: '2020-01-03' }, select: ['picked', 'labelled'] });
    expect(p.rows('picked')).toEqual([{ id: 1, cents: 10 }, { id: 3, cents: 30 }]);
    expect(p.rows('labelled')).toEqual([{ id: 1, name: 'one', big: 10000 }, { id: 3, name: 'three', big: 30000 }]);
    const session = loadSession({ projectDir: p.dir });
    expect(session.manifest.models.get('base')!.settings.materialized).toBe('ephemeral');
    expect(session.manifest.models.get('picked')!.config.tags).toEqual(['a', 'b']);
    expect(session.manifest.models.get('labelled')!.config.meta).toEqual({ owner: 'x' });
  });
});
