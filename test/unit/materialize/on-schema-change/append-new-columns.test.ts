import { describe, expect, it } from 'vitest';
import { schemaChangeProject } from '../../../support/schema-change-project.js';
import { expectAtomicFailure } from '../../../support/strategy-project.js';

describe('on_schema_change: append_new_columns', () => {
  it('adds new columns (old rows NULL), keeps removed ones (NULL in new rows), leaves types alone', async () => {
    const p = schemaChangeProject('append_new_columns');
    await p.buildOk();
    p.select("id, cast(amount as text) as amount, extra");
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const script = await p.script('m');
    expect(script).toContain('alter table "m" add column "extra"');
    expect(script).toContain('-- on_schema_change: append_new_columns: add extra (TEXT) (existing rows get NULL); keep note (NULL in new rows); leave the types of amount as they are');
    await p.buildOk();
    expect(p.columns('m')).toEqual([{ name: 'id', type: 'INT' }, { name: 'amount', type: 'REAL' }, { name: 'note', type: 'TEXT' }, { name: 'extra', type: 'TEXT' }]);
    expect(p.rows('m')).toEqual([
      { id: 1, amount: 10, note: 'a', extra: null },
      { id: 2, amount: 20, note: 'b', extra: null },
      { id: 3, amount: 30, note: null, extra: 'x3' },
    ]);
  });

  it('a failure after the last statement of the publish rolls the ALTER back too', async () => {
    const p = schemaChangeProject('append_new_columns');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount, note, extra');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    await expectAtomicFailure(p, 'm', 'schema-change');
    await expectAtomicFailure(p, 'm', 'commit');
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'note']);
    await p.buildOk();
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'note', 'extra']);
  });
});
