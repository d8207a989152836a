import { expect, it } from 'vitest';
import { describePgProjects } from '../support/engine-under-test.js';
import { expectAtomicFailure, miniProject } from '../support/strategy-project.js';

/**
 * on_schema_change on PostgreSQL beyond the conformance cases: the declared
 * types of the columns an ALTER adds or changes (PostgreSQL's ALTER TABLE
 * needs one), and the ALTER rolled back with the rest of a failed publish
 * (PostgreSQL's DDL is transactional).
 */
const model = (mode: string, cols: string) => `{{ config(materialized='incremental', unique_key='id', on_schema_change='${mode}') }}
select ${cols} from {{ source('raw', 'events') }}
{% if is_incremental() %}where id > (select max(id) from {{ this }}){% endif %}
`;

function project(mode: string, cols = 'id, cast(amount as real) as amount, note') {
  const p = miniProject({ 'models/m.sql': model(mode, cols) }, undefined, { engine: 'postgres' });
  p.exec(`create table events (id integer, amount text, note text, extra text);
    insert into events values (1, '10', 'a', 'x1'), (2, '20', 'b', 'x2');`);
  return Object.assign(p, { select: (c: string) => p.write('models/m.sql', model(mode, c)) });
}

describePgProjects('on_schema_change on PostgreSQL: typed ALTERs, rolled back with a failed publish', () => {
  it('append_new_columns adds the new column with its type; old rows hold NULL', async () => {
    const p = project('append_new_columns');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount, note, cast(extra as text) as extra, cast(id * 2 as bigint) as twice');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    await p.buildOk();
    expect(p.columns('m')).toEqual([
      { name: 'id', type: 'integer' }, { name: 'amount', type: 'real' }, { name: 'note', type: 'text' }, { name: 'extra', type: 'text' }, { name: 'twice', type: 'bigint' },
    ]);
    expect(p.rows('m')).toEqual([
      { id: 1, amount: 10, note: 'a', extra: null, twice: null },
      { id: 2, amount: 20, note: 'b', extra: null, twice: null },
      { id: 3, amount: 30, note: 'c', extra: 'x3', twice: 6 },
    ]);
  });

  it('sync_all_columns drops a removed column and adds a new one', async () => {
    const p = project('sync_all_columns');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount, extra');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    await p.buildOk();
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'extra']);
    expect(p.rows('m')).toEqual([
      { id: 1, amount: 10, extra: null },
      { id: 2, amount: 20, extra: null },
      { id: 3, amount: 30, extra: 'x3' },
    ]);
  });

  it('a failure after the last statement of the publish rolls the ALTER back too', async () => {
    const p = project('append_new_columns');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount, note, extra');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    await expectAtomicFailure(p, 'm', 'schema-change');
    await expectAtomicFailure(p, 'm', 'commit');
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'note']);
    await p.buildOk();
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'note', 'extra']);
  });

  it('fail: a changed column list fails the model and leaves the table as it was', async () => {
    const p = project('fail');
    await p.buildOk();
    p.select('id, note');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const before = p.snapshot();
    const result = await p.build();
    expect(result.results[0]!.status).toBe('error');
    expect(p.snapshot()).toEqual(before);
  });
});
