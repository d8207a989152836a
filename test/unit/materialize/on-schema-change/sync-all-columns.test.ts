import { describe, expect, it } from 'vitest';
import { schemaChangeProject } from '../../../support/schema-change-project.js';
import { expectAtomicFailure } from '../../../support/strategy-project.js';

describe('on_schema_change: sync_all_columns', () => {
  it('adds new columns and drops removed ones (and their indexes); views on the table are not in the way', async () => {
    const p = schemaChangeProject('sync_all_columns');
    p.write('models/m_view.sql', "{{ config(materialized='view') }}select id, amount from {{ ref('m') }}");
    await p.buildOk();
    p.exec('create index "m__idx__note" on "m" ("note")');
    p.select('id, cast(amount as real) as amount, extra');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const script = await p.script('m');
    expect(script).toContain('drop index "m__idx__note"');
    expect(script).toContain('alter table "m" drop column "note"');
    await p.buildOk();
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'extra']);
    expect(p.rows('m')).toEqual([
      { id: 1, amount: 10, extra: null },
      { id: 2, amount: 20, extra: null },
      { id: 3, amount: 30, extra: 'x3' },
    ]);
    expect(p.rows('m_view')).toHaveLength(3);
  });

  it('a type change rebuilds the table in the same transaction, converting the rows it keeps', async () => {
    const p = schemaChangeProject('sync_all_columns');
    await p.buildOk();
    p.select('id, cast(amount as text) as amount, note');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const script = await p.script('m');
    expect(script).toContain('-- on_schema_change: sync_all_columns: rebuild "m" in the same transaction (changed types: amount REAL -> TEXT)');
    expect(script).toContain('create table "m__mini_dbt_tmp" as select * from temp."m__mini_dbt_new" where 0');
    await p.buildOk();
    expect(p.columns('m')).toEqual([{ name: 'id', type: 'INT' }, { name: 'amount', type: 'TEXT' }, { name: 'note', type: 'TEXT' }]);
    expect(p.rows('m')).toEqual([{ id: 1, amount: '10.0', note: 'a' }, { id: 2, amount: '20.0', note: 'b' }, { id: 3, amount: '30', note: 'c' }]);
    // The key index was rebuilt with the table.
    expect(p.rows('sqlite_master', 'name').filter((o) => o.tbl_name === 'm' && o.type === 'index').map((o) => o.name)).toEqual(['m__idx__id']);
  });

  it('a failure after the last statement of the publish leaves rows and schema unchanged (rebuild included)', async () => {
    const p = schemaChangeProject('sync_all_columns');
    await p.buildOk();
    p.select('id, cast(amount as text) as amount, extra');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    await expectAtomicFailure(p, 'm', 'swap');
    await expectAtomicFailure(p, 'm', 'commit');
    expect(p.columns('m').map((c) => `${c.name} ${c.type}`)).toEqual(['id INT', 'amount REAL', 'note TEXT']);
  });
});
