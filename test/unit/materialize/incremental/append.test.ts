import { expect, it } from 'vitest';
import { appendStrategy } from '../../../../src/materialize/incremental/append.js';
import { expectAtomicFailure, miniProject } from '../../../support/strategy-project.js';
import { parseModelSettings, type IncrementalModelSettings } from '../../../../src/config/model-settings.js';
import { describeEachEngine, type EngineName } from '../../../support/engine-under-test.js';

const INCREMENTAL = parseModelSettings({ materialized: 'incremental' }) as IncrementalModelSettings;

const MODEL = `{{ config(materialized='incremental', incremental_strategy='append') }}
select id, status, loaded_on from {{ source('raw', 'events') }}
{% if is_incremental() %}where loaded_on > (select max(loaded_on) from {{ this }}){% endif %}
`;

const setupOn = (engine: EngineName) => function setup() {
  const p = miniProject({ 'models/events_log.sql': MODEL }, undefined, { engine });
  p.exec(`create table events (id integer, status text, loaded_on text);
    insert into events values (1, 'placed', '2024-01-01'), (2, 'placed', '2024-01-01');`);
  return p;
};

describeEachEngine('append strategy', (engine) => {
  const setup = setupOn(engine);
  it('emits one INSERT of the new rows into the target columns', () => {
    const statements = appendStrategy.statements({
      model: 'm', target: '"m"', newRows: 'temp."m__mini_dbt_new"', uniqueKey: [], destColumns: ['"id"', '"status"'], predicates: [], settings: INCREMENTAL,
    });
    expect(statements).toEqual([{ kind: 'exec', role: 'insert', sql: 'insert into "m" ("id", "status")\nselect "id", "status" from temp."m__mini_dbt_new"' }]);
  });

  it('first build, then inserts only the new rows, and a late version of a row is added next to the old one', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (1, 'shipped', '2024-01-02'), (3, 'placed', '2024-01-02')`);
    const r = await p.buildOk();
    expect(r.results[0]!.message).toBe('INSERT 2');
    expect(p.rows('events_log')).toEqual([
      { id: 1, status: 'placed', loaded_on: '2024-01-01' },
      { id: 1, status: 'shipped', loaded_on: '2024-01-02' }, // append double-counts order 1
      { id: 2, status: 'placed', loaded_on: '2024-01-01' },
      { id: 3, status: 'placed', loaded_on: '2024-01-02' },
    ]);
    expect(await p.script('events_log')).not.toContain('delete from');
  });

  it('is idempotent only through the model filter: a rerun with no new rows inserts nothing', async () => {
    const p = setup();
    await p.buildOk();
    const before = p.rows('events_log');
    const r = await p.buildOk();
    expect(r.results[0]!.message).toBe('INSERT 0');
    expect(p.rows('events_log')).toEqual(before);
  });

  it('--full-refresh rebuilds from every raw row', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`delete from events where id = 2`);
    await p.buildOk({ fullRefresh: true });
    expect(p.rows('events_log').map((r) => r.id)).toEqual([1]);
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged and is in the ledger', async () => {
    const p = setup();
    await p.buildOk();
    p.exec(`insert into events values (3, 'placed', '2024-01-02')`);
    await expectAtomicFailure(p, 'events_log', 'insert');
    await expectAtomicFailure(p, 'events_log', 'commit');
    await expectAtomicFailure(p, 'events_log', 'commit', { fullRefresh: true });
  });
});
