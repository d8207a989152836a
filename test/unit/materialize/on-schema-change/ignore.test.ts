import { describe, expect, it } from 'vitest';
import { schemaChangeProject } from '../../../support/schema-change-project.js';
import { expectAtomicFailure } from '../../../support/strategy-project.js';

describe('on_schema_change: ignore (the default)', () => {
  it('a new column in the model is not written; the table keeps its columns and compile says so', async () => {
    const p = schemaChangeProject('ignore');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount, note, extra');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const script = await p.script('m');
    expect(script).toContain('-- on_schema_change: ignore: extra is not written: the table has no such column');
    await p.buildOk();
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount', 'note']);
    expect(p.rows('m')).toEqual([{ id: 1, amount: 10, note: 'a' }, { id: 2, amount: 20, note: 'b' }, { id: 3, amount: 30, note: 'c' }]);
  });

  it('a column the model no longer produces stops the run with a clear message, before anything is written', async () => {
    const p = schemaChangeProject('ignore');
    await p.buildOk();
    p.select('id, cast(amount as real) as amount');
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    const before = p.snapshot();
    const r = await p.build();
    expect(r.results[0]!.status).toBe('error');
    expect(r.results[0]!.exitCode).toBe(1); // a node failure: exit 1, as in dbt
    expect(r.results[0]!.message).toContain("model 'm' no longer produces note, which table \"m\" has (on_schema_change: ignore)");
    expect(p.snapshot()).toEqual(before);
    // --full-refresh rebuilds with the new columns.
    await p.buildOk({ fullRefresh: true });
    expect(p.columns('m').map((c) => c.name)).toEqual(['id', 'amount']);
  });

  it('an unchanged schema plans no schema change; a failed publish leaves rows and schema unchanged', async () => {
    const p = schemaChangeProject('ignore');
    await p.buildOk();
    p.exec(`insert into events values (3, '30', 'c', 'x3')`);
    expect(await p.script('m')).not.toContain('on_schema_change');
    p.select('id, cast(amount as real) as amount, note, extra');
    await expectAtomicFailure(p, 'm', 'commit');
  });
});
