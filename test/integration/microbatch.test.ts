import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { retry } from '../../src/api/retry.js';
import type { RunEvent } from '../../src/state/node-result.js';
import { renderModel } from '../../src/compile/render-model.js';
import { loadSession } from '../../src/api/session.js';
import { miniProject } from '../support/strategy-project.js';

const SOURCES = `sources:
  - name: raw
    tables:
      - name: events
        event_time: occurred_at
      - name: shops
`;
const CONFIG = "{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='day', batch_size='day', begin='2024-01-01') }}";
const DAILY = `${CONFIG}
select date(e.occurred_at) as day, count(*) as n, sum(json_extract(e.payload, '$.amount')) as amount, max(s.name) as shop
from {{ source('raw', 'events') }} as e
join {{ source('raw', 'shops') }} as s on s.id = e.shop_id
group by date(e.occurred_at)
`;

function setup(files: Record<string, string> = {}) {
  const p = miniProject({ 'models/sources.yml': SOURCES, 'models/daily.sql': DAILY, ...files });
  p.exec(`create table shops (id integer, name text); insert into shops values (1, 'north');
    create table events (id integer, shop_id integer, occurred_at text, payload text);
    insert into events values
      (1, 1, '2024-01-01', '{"amount": 1}'),
      (2, 1, '2024-01-02 09:30:00', '{"amount": 2}'),
      (3, 1, '2024-01-02', '{"amount": 3}'),
      (4, 1, '2024-01-03 23:59:59', '{"amount": 4}');`);
  return p;
}
const logs = () => {
  const lines: string[] = [];
  return { lines, onEvent: (e: RunEvent) => { if (e.type === 'log') lines.push(e.message); } };
};

describe('microbatch models', () => {
  it('filter refs and sources that declare event_time to the batch, with date literals that keep date-only values in their own day', async () => {
    const p = setup({
      'models/downstream.sql': `${CONFIG}\nselect day, n from {{ ref('daily') }} union all select day, -1 from {{ ref('daily').render() }} where 0`,
      'models/schema.yml': 'models:\n  - name: daily\n    config:\n      event_time: day\n',
    });
    await p.buildOk({ vars: { as_of: '2024-01-03' }, select: ['daily'] });
    // '2024-01-02' (date only) and '2024-01-02 09:30:00' both land in the 2024-01-02 batch.
    expect(p.rows('daily')).toEqual([
      { day: '2024-01-01', n: 1, amount: 1, shop: 'north' },
      { day: '2024-01-02', n: 2, amount: 5, shop: 'north' },
      { day: '2024-01-03', n: 1, amount: 4, shop: 'north' },
    ]);
    const session = loadSession({ projectDir: p.dir });
    const batch = { label: '2024-01-02', start: '2024-01-02', end: '2024-01-03' };
    const daily = renderModel(session.manifest, session.manifest.models.get('daily')!, { incremental: false, batch }).sql;
    expect(daily).toContain(`from (select * from "main"."events" where "occurred_at" >= '2024-01-02' and "occurred_at" < '2024-01-03') as e`);
    expect(daily).toContain('join "main"."shops" as s'); // no event_time: not filtered
    const downstream = renderModel(session.manifest, session.manifest.models.get('downstream')!, { incremental: false, batch }).sql;
    expect(downstream).toContain(`from (select * from "main"."daily" where "day" >= '2024-01-02' and "day" < '2024-01-03')`);
    expect(downstream).toContain('from "main"."daily" where 0'); // .render() opts out
  });

  it('--event-time-start/--event-time-end build exactly that range (end exclusive)', async () => {
    const p = setup();
    await p.buildOk({ vars: { as_of: '2024-01-03' } });
    p.exec(`insert into events values (5, 1, '2024-01-01 12:00:00', '{"amount": 10}'), (6, 1, '2024-01-03', '{"amount": 10}')`);
    const r = await p.buildOk({ vars: { as_of: '2024-01-03' }, eventTimeStart: '2024-01-01', eventTimeEnd: '2024-01-02' });
    expect(r.results[0]!.plan!.batches!.map((b) => b.label)).toEqual(['2024-01-01']);
    expect(p.rows('daily').map((r) => r.amount)).toEqual([11, 5, 4]);
    await expect(p.build({ eventTimeStart: '2024-01-02', eventTimeEnd: '2024-01-02' })).rejects.toThrow(/must be before --event-time-end/);
    await expect(p.build({ eventTimeStart: '2024-01-02' })).rejects.toThrow(/`--event-time-end` was not/);
  });

  it('a failed middle batch keeps the others; run_results lists the batches; retry reruns only the failed one', async () => {
    const p = setup();
    await p.buildOk({ vars: { as_of: '2024-01-03' } });
    p.exec(`insert into events values (5, 1, '2024-01-02', 'not json'), (6, 1, '2024-01-01', '{"amount": 10}'), (7, 1, '2024-01-03', '{"amount": 10}')`);
    const out = logs();
    const failed = await p.build({ vars: { as_of: '2024-01-03' }, eventTimeStart: '2024-01-01', eventTimeEnd: '2024-01-04', writeArtifacts: true, onEvent: out.onEvent });
    const result = failed.results[0]!;
    expect(result.status).toBe('partial success');
    expect(failed.exitCode).toBe(1);
    expect(result.message).toMatch(/PARTIAL SUCCESS \(2\/3 batches\): batch 2024-01-02 failed: malformed JSON/);
    expect(out.lines.filter((l) => l.startsWith('Batch')).map((l) => l.split(' ...')[0])).toEqual([
      'Batch 1 of 3 START batch 2024-01-01 of main.daily',
      'Batch 1 of 3 OK created batch 2024-01-01 of main.daily',
      'Batch 2 of 3 START batch 2024-01-02 of main.daily',
      'Batch 2 of 3 ERROR creating batch 2024-01-02 of main.daily',
      'Batch 3 of 3 START batch 2024-01-03 of main.daily',
      'Batch 3 of 3 OK created batch 2024-01-03 of main.daily',
    ]);
    expect(p.rows('daily').map((r) => [r.day, r.amount])).toEqual([['2024-01-01', 11], ['2024-01-02', 5], ['2024-01-03', 14]]);
    const runResults = JSON.parse(readFileSync(join(p.dir, 'target', 'run_results.json'), 'utf8'));
    expect(runResults.results[0].status).toBe('partial success');
    expect(runResults.results[0].batch_results).toEqual({
      successful: [['2024-01-01', '2024-01-02'], ['2024-01-03', '2024-01-04']],
      failed: [['2024-01-02', '2024-01-03']],
    });
    const errors = p.ledger('daily').filter((l) => l.status === 'error');
    expect(errors.map((l) => [l.window_start, l.window_end])).toEqual([['2024-01-02', '2024-01-03']]);

    // Fix the data, then retry: only the failed batch runs.
    p.exec(`update events set payload = '{"amount": 20}' where id = 5`);
    const before = p.ledger('daily').length;
    const retried = await retry({ projectDir: p.dir, writeArtifacts: true, onEvent: () => undefined });
    expect(retried!.retried.nodes).toEqual([{ uniqueId: 'model.shop.daily', name: 'daily', status: 'partial success', batches: [{ start: '2024-01-02', end: '2024-01-03' }] }]);
    expect(retried!.results[0]!.status).toBe('success');
    expect(retried!.results[0]!.plan!.batches!.map((b) => [b.label, b.mode, b.reason])).toEqual([['2024-01-02', 'incremental', 'retry']]);
    expect(p.ledger('daily').slice(before).map((l) => [l.window_start, l.status])).toEqual([['2024-01-02', 'success']]);
    expect(p.rows('daily').map((r) => [r.day, r.amount])).toEqual([['2024-01-01', 11], ['2024-01-02', 25], ['2024-01-03', 14]]);
    // Nothing failed last time: nothing to retry.
    expect(await retry({ projectDir: p.dir, writeArtifacts: true })).toBeNull();
  });

  it('a failed first batch skips the rest', async () => {
    const p = setup();
    p.exec(`update events set payload = 'oops' where id = 1`);
    const r = await p.build({ vars: { as_of: '2024-01-03' } });
    expect(r.results[0]!.message).toMatch(/batch 2024-01-01 failed: malformed JSON.*\(the 2 later batches were skipped\)/s);
    expect(r.results[0]!.batchResults!.successful).toEqual([]);
    expect(p.columns('daily')).toEqual([]);
  });

  it('leaves the batches missed runs left behind, as dbt does, and says how to fill them', async () => {
    const p = setup();
    await p.buildOk({ vars: { as_of: '2024-01-03' } });
    // Nights 01-04 .. 01-08 never ran; rows landed for 01-05 meanwhile.
    p.exec(`insert into events values (8, 1, '2024-01-05', '{"amount": 50}'), (9, 1, '2024-01-09', '{"amount": 90}')`);
    const out = logs();
    const r = await p.buildOk({ vars: { as_of: '2024-01-09' }, onEvent: out.onEvent });
    expect(r.results[0]!.plan!.batches!.map((b) => `${b.label}:${b.reason}`)).toEqual(['2024-01-08:lookback', '2024-01-09:lookback']);
    expect(out.lines[0]).toBe('daily: 4 batches before the lookback were never built (2024-01-04, 2024-01-05, 2024-01-06, 2024-01-07) and this run leaves them, as dbt does; set fill_gaps: true to fill them, or run --event-time-start 2024-01-04 --event-time-end 2024-01-08');
    // 2024-01-05's row is not in the table: the hole stays, as in dbt.
    expect(p.rows('daily').map((row) => row.day)).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-09']);
    // The range the warning names fills it.
    await p.buildOk({ vars: { as_of: '2024-01-09' }, eventTimeStart: '2024-01-04', eventTimeEnd: '2024-01-08' });
    expect(p.rows('daily').map((row) => [row.day, row.amount])).toEqual([['2024-01-01', 1], ['2024-01-02', 5], ['2024-01-03', 4], ['2024-01-05', 50], ['2024-01-09', 90]]);
  });

  it('fill_gaps: true fills the batches missed runs left behind, and says so (dbt leaves holes)', async () => {
    const p = setup({ 'models/daily.sql': DAILY.replace("begin='2024-01-01'", "begin='2024-01-01', fill_gaps=true") });
    await p.buildOk({ vars: { as_of: '2024-01-03' } });
    // Nights 01-04 .. 01-08 never ran; rows landed for 01-05 meanwhile.
    p.exec(`insert into events values (8, 1, '2024-01-05', '{"amount": 50}'), (9, 1, '2024-01-09', '{"amount": 90}')`);
    const out = logs();
    const r = await p.buildOk({ vars: { as_of: '2024-01-09' }, onEvent: out.onEvent });
    const plan = r.results[0]!.plan!;
    expect(plan.batches!.map((b) => `${b.label}:${b.reason}`)).toEqual([
      '2024-01-04:gap', '2024-01-05:gap', '2024-01-06:gap', '2024-01-07:gap', '2024-01-08:lookback', '2024-01-09:lookback',
    ]);
    expect(out.lines[0]).toMatch(/^daily: filling 4 batches the run ledger never recorded as built \(2024-01-04, 2024-01-05, 2024-01-06, 2024-01-07\); dbt would only rerun the lookback/);
    expect(p.rows('daily').map((r) => r.day)).toEqual(['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-05', '2024-01-09']);
    // Everything is recorded now: the next night has no gaps.
    const next = await p.buildOk({ vars: { as_of: '2024-01-10' } });
    expect(next.results[0]!.plan!.batches!.map((b) => b.reason)).toEqual(['lookback', 'lookback']);
  });

  it('compile shows the batches and the statements of a batch', async () => {
    const p = setup();
    await p.buildOk({ vars: { as_of: '2024-01-03' } });
    const script = await p.script('daily', { vars: { as_of: '2024-01-04' } });
    expect(script).toContain('-- 2 batches, each its own transaction: 2024-01-03, 2024-01-04');
    expect(script).toContain(`-- batch 2 of 2: 2024-01-04 [2024-01-04, 2024-01-05) (replaces its window)`);
  });
});
