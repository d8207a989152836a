import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/state/node-result.js';
import { compile } from '../../src/api/compile.js';
import { collectUserWarnings } from '../../src/errors/user-warning.js';
import { runCli } from '../support/run-cli.js';
import { expectAtomicFailure, miniProject } from '../support/strategy-project.js';

const RAW = `create table events (id integer, v text); insert into events values (1, 'a'), (2, 'b');`;

describe('model configs dbt users expect', () => {
  it('alias names the relation; refs and the ledger follow it', async () => {
    const p = miniProject({
      'models/orders.sql': "{{ config(materialized='table', alias='fct_orders') }}select id, v from {{ source('raw', 'events') }}",
      'models/orders_count.sql': "{{ config(materialized='table') }}select count(*) as n from {{ ref('orders') }}",
    });
    p.exec(RAW);
    await p.buildOk();
    expect(p.rows('fct_orders')).toHaveLength(2);
    expect(p.columns('orders')).toEqual([]);
    expect(p.rows('orders_count')).toEqual([{ n: 2 }]);
    expect(p.ledger('orders').at(-1)!.status).toBe('success');
  });

  it('tags select models (and add up from folder configs)', async () => {
    const p = miniProject({
      'models/a.sql': "{{ config(materialized='table', tags=['nightly']) }}select 1 as x",
      'models/marts/b.sql': "{{ config(materialized='table') }}select 2 as x",
      'models/c.sql': "{{ config(materialized='table') }}select 3 as x",
    }, 'name: shop\nmodels:\n  shop:\n    marts:\n      +tags: [nightly, finance]\n');
    const r = await p.buildOk({ select: ['tag:nightly'] });
    expect(r.results.map((x) => x.name).sort()).toEqual(['a', 'b']);
    expect((await p.buildOk({ select: ['tag:finance'] })).results.map((x) => x.name)).toEqual(['b']);
  });

  it('enabled: false removes a model; a ref to it says it is disabled', async () => {
    const p = miniProject({ 'models/off.sql': "{{ config(enabled=false) }}select 1 as x", 'models/on.sql': 'select 2 as x' });
    const r = await p.buildOk();
    expect(r.results.map((x) => x.name)).toEqual(['on']);
    expect(() => miniProject({ 'models/off.sql': "{{ config(enabled=false) }}select 1 as x", 'models/uses.sql': "select * from {{ ref('off') }}" }))
      .toThrow(/model 'uses' depends on a node named 'off' which is disabled/);
  });

  it('--full-refresh runs a full_refresh: false model incrementally, as dbt does, with a warning, and rebuilds the others', async () => {
    const model = (extra: string) => `{{ config(materialized='incremental', unique_key='id'${extra}) }}
select id, v from {{ source('raw', 'events') }}{% if is_incremental() %} where id > (select max(id) from {{ this }}){% endif %}`;
    const p = miniProject({ 'models/kept.sql': model(', full_refresh=false'), 'models/rebuilt.sql': model('') });
    p.exec(RAW);
    await p.buildOk();
    // Row 1 is gone upstream and row 3 landed: a rebuild drops 1, an incremental run keeps it.
    p.exec(`delete from events where id = 1; insert into events values (3, 'c');`);
    const warnings: string[] = [];
    const restore = collectUserWarnings((w) => warnings.push(w));
    let r;
    try {
      r = await p.buildOk({ fullRefresh: true });
    } finally {
      restore();
    }
    expect(r.exitCode).toBe(0);
    expect(warnings).toEqual([
      'kept has full_refresh: false, so --full-refresh runs it incrementally, as dbt does (existing rows are kept); remove full_refresh: false to rebuild it, or set full_refresh_ignored: error to refuse the command instead',
    ]);
    const byName = Object.fromEntries(r.results.map((x) => [x.name, `${x.plan!.mode}: ${x.plan!.reason}`]));
    expect(byName).toEqual({
      kept: 'incremental: is_incremental(): the target exists as a table (full_refresh: false beats --full-refresh, as in dbt)',
      rebuilt: 'full: --full-refresh',
    });
    expect(p.rows('kept')).toEqual([{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 3, v: 'c' }]);
    expect(p.rows('rebuilt')).toEqual([{ id: 2, v: 'b' }, { id: 3, v: 'c' }]);

    // The CLI prints the warning on stderr and exits 0.
    p.exec(`insert into events values (4, 'd');`);
    const cli = runCli(['run', '--full-refresh', '--project-dir', p.dir]);
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain('Warning: kept has full_refresh: false, so --full-refresh runs it incrementally, as dbt does');
    expect(p.rows('kept').map((row) => row.id)).toEqual([1, 2, 3, 4]);
    expect(p.rows('rebuilt').map((row) => row.id)).toEqual([2, 3, 4]);
  });

  it('full_refresh_ignored: error (the opt-in) refuses --full-refresh before anything runs; true always rebuilds', async () => {
    const keep = miniProject({
      'models/m.sql': "{{ config(materialized='incremental', full_refresh=false, full_refresh_ignored='error') }}select id, v from {{ source('raw', 'events') }}",
      'models/other.sql': "{{ config(materialized='incremental') }}select id from {{ source('raw', 'events') }}",
    });
    keep.exec(RAW);
    await keep.buildOk();
    keep.exec(`insert into events values (3, 'c');`);
    const before = keep.snapshot();
    await expect(keep.build({ fullRefresh: true })).rejects.toThrow(/--full-refresh refused: m has full_refresh: false and full_refresh_ignored: error/);
    expect(keep.snapshot()).toEqual(before);
    expect(keep.rows('m')).toHaveLength(2);
    // Without the flag it runs as usual; an invalid value is a config error.
    await keep.buildOk();
    expect(keep.rows('m')).toHaveLength(5);
    expect(() => miniProject({ 'models/m.sql': "{{ config(materialized='incremental', full_refresh=false, full_refresh_ignored='refuse') }}select 1 as id" }))
      .toThrow(/invalid full_refresh_ignored 'refuse'; valid: warn .*, error/);
    const always = miniProject({ 'models/m.sql': "{{ config(materialized='incremental', full_refresh=true) }}select id, v from {{ source('raw', 'events') }}" });
    always.exec(RAW);
    await always.buildOk();
    const r = await always.buildOk();
    expect([r.results[0]!.plan!.mode, r.results[0]!.plan!.reason]).toEqual(['full', 'config full_refresh: true']);
    expect(always.rows('m')).toHaveLength(2);
  });

  it('hooks run in the publish transaction (rendered, so {{ this }} works) unless transaction: false', async () => {
    const p = miniProject({
      'models/m.sql': `{{ config(materialized='table',
        pre_hook=["insert into audit values ('pre', (select count(*) from events))", before_begin("insert into audit values ('before begin', 0)")],
        post_hook=["insert into audit select 'post', count(*) from {{ this }}", after_commit("insert into audit values ('after commit', 0)")]) }}
select id, v from {{ source('raw', 'events') }}`,
    });
    p.exec(`${RAW} create table audit (step text, n integer);`);
    await p.buildOk();
    expect(p.rows('audit', 'rowid')).toEqual([
      { step: 'before begin', n: 0 }, { step: 'pre', n: 2 }, { step: 'post', n: 2 }, { step: 'after commit', n: 0 },
    ]);
    p.exec('delete from audit');
    // A failure in the publish rolls back the transactional hooks, not the one that ran before BEGIN.
    const before = p.rows('m');
    const r = await (async () => {
      process.env.MINI_DBT_INJECT_FAILURE = 'm:post-hook';
      try {
        return await p.build();
      } finally {
        delete process.env.MINI_DBT_INJECT_FAILURE;
      }
    })();
    expect(r.results[0]!.status).toBe('error');
    expect(p.rows('audit', 'rowid')).toEqual([{ step: 'before begin', n: 0 }]);
    expect(p.rows('m')).toEqual(before);
  });

  it('ephemeral models are inlined as CTEs (recursively, merged into a leading WITH), never built nor counted', async () => {
    const p = miniProject({
      'models/base.sql': "{{ config(materialized='ephemeral') }}select id, v from {{ source('raw', 'events') }}",
      'models/named.sql': "{{ config(materialized='ephemeral') }}select id, upper(v) as v from {{ ref('base') }}",
      'models/final.sql': "{{ config(materialized='table') }}with doubled as (select id * 2 as id2, v from {{ ref('named') }}) select * from doubled join {{ ref('base') }} b on b.id * 2 = doubled.id2",
    });
    p.exec(RAW);
    const events: RunEvent[] = [];
    const r = await p.buildOk({ onEvent: (e) => events.push(e) });
    expect(r.results.map((x) => x.name)).toEqual(['final']);
    expect(events.filter((e) => e.type === 'start').map((e) => e.type === 'start' && `${e.index} of ${e.total}`)).toEqual(['1 of 1']);
    expect(p.columns('base')).toEqual([]);
    expect(p.rows('final').map((x) => [x.id2, x.v])).toEqual([[2, 'A'], [4, 'B']]);
    const sql = compile({ projectDir: p.dir, select: ['final'] })[0]!.fullSql;
    expect(sql).toBe([
      'with __dbt__cte__base as (',
      'select id, v from "main"."events"',
      '),',
      '__dbt__cte__named as (',
      'select id, upper(v) as v from __dbt__cte__base',
      '),',
      'doubled as (select id * 2 as id2, v from __dbt__cte__named) select * from doubled join __dbt__cte__base b on b.id * 2 = doubled.id2',
    ].join('\n'));
  });

  it('a table rebuild keeps views on it working; a model switching between view and table is replaced cleanly', async () => {
    const p = miniProject({
      'models/t.sql': "{{ config(materialized='table') }}select id, v from {{ source('raw', 'events') }}",
      'models/v.sql': "{{ config(materialized='view') }}select count(*) as n from {{ ref('t') }}",
    });
    p.exec(RAW);
    await p.buildOk();
    p.exec(`insert into events values (3, 'c')`);
    await p.buildOk({ select: ['t'] }); // only the table: the view is not recreated
    expect(p.rows('v')).toEqual([{ n: 3 }]);
    expect(p.rows('sqlite_master', 'name').filter((o) => o.name === 'v').map((o) => o.sql)).toEqual(['CREATE VIEW "v" as\nselect count(*) as n from "main"."t"']);
    p.write('models/t.sql', "{{ config(materialized='view') }}select id, v from {{ source('raw', 'events') }}");
    await p.buildOk({ select: ['t'] });
    expect(p.rows('sqlite_master', 'name').filter((o) => o.name === 't').map((o) => o.type)).toEqual(['view']);
    expect(p.rows('v')).toEqual([{ n: 3 }]);
    p.write('models/t.sql', "{{ config(materialized='table') }}select id, v from {{ source('raw', 'events') }}");
    await p.buildOk({ select: ['t'] });
    expect(p.rows('sqlite_master', 'name').filter((o) => o.name === 't').map((o) => o.type)).toEqual(['table']);
    expect(p.rows('v')).toEqual([{ n: 3 }]);
  });

  it('table and view publishes are atomic: a failure after their last statement changes nothing and is in the ledger', async () => {
    const p = miniProject({
      'models/t.sql': "{{ config(materialized='table', indexes=[{'columns': ['id'], 'unique': true}]) }}select id, v from {{ source('raw', 'events') }}",
      'models/v.sql': "{{ config(materialized='view') }}select count(*) as n from {{ ref('t') }}",
    });
    p.exec(RAW);
    await p.buildOk();
    p.exec(`insert into events values (3, 'c')`);
    await expectAtomicFailure(p, 't', 'index');
    await expectAtomicFailure(p, 't', 'commit');
    await expectAtomicFailure(p, 'v', 'create-view');
    await expectAtomicFailure(p, 'v', 'commit');
  });
});
