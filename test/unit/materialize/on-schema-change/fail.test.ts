import { describe, expect, it } from 'vitest';
import { schemaChangeProject } from '../../../support/schema-change-project.js';

describe('on_schema_change: fail', () => {
  it('lists columns only in the model, only in the table and changed types, and writes nothing', async () => {
    const p = schemaChangeProject('fail');
    await p.buildOk();
    p.select("id, cast(amount as text) as amount, extra");
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const before = p.snapshot();
    const r = await p.build();
    const result = r.results[0]!;
    expect(result.status).toBe('error');
    expect(result.exitCode).toBe(1); // a node failure: exit 1, as in dbt
    expect(result.message).toContain(`model 'm': the model's output and table "m" are out of sync (on_schema_change: fail)`);
    expect(result.message).toContain("only in the model's output: extra (TEXT)");
    expect(result.message).toContain('only in the table: note (TEXT)');
    expect(result.message).toContain('changed types: amount REAL -> TEXT');
    expect(p.snapshot()).toEqual(before);
    expect(p.ledger('m').at(-1)!.status).toBe('error');
  });

  it('compile shows the refusal in the plan', async () => {
    const p = schemaChangeProject('fail');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount, note, extra');
    const script = await p.script('m');
    expect(script).toContain("-- on_schema_change: fail: stop the run: only in the model's output: extra (TEXT)");
    expect(script).toContain('-- the run stops here, before anything is written:');
  });

  it('an unchanged schema runs normally (INT and INTEGER are the same type)', async () => {
    const p = schemaChangeProject('fail', 'id, cast(amount as integer) as amount, note');
    await p.buildOk();
    p.exec(`alter table events add column spare text; insert into events values (3, '30', 'c', 'x3', null)`);
    p.select('id, cast(amount as int) as amount, note');
    await p.buildOk();
    expect(p.rows('m')).toHaveLength(3);
  });
});
