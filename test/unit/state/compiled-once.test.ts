import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../../src/engine/open-warehouse.js';
import { compiledInsert, compiledOnce } from '../../../src/state/compiled-once.js';
import { finishRun, runByInvocation, startRun } from '../../../src/state/ledger.js';
import { ledgerIsCurrent, migrateLedger } from '../../../src/state/migrate-ledger.js';
import { ledgerQueries as q } from '../../../src/state/query-builder.js';

describe('ledger queries compiled once', () => {
  it('rows of different shapes each land in their own columns', () => {
    const db = openWarehouse(':memory:');
    db.exec('create table shapes (a text, b integer, c text)');
    const insert = (row: Record<string, unknown>) => {
      const { sql, parameters } = compiledInsert('shapes', row, (r) => q.insertInto('shapes' as never).values(r as never));
      db.run(sql, ...parameters);
    };
    insert({ a: 'x', b: 1, c: 'first' });
    insert({ c: 'second', a: 'y', b: 2 }); // another column order: another shape
    insert({ a: 'z', b: undefined, c: 'third' }); // undefined is left out, as kysely does
    insert({ a: 'w', b: 4, c: 'fourth' }); // the first shape again, from the cache
    expect(db.all('select a, b, c from shapes order by rowid')).toEqual([
      { a: 'x', b: 1, c: 'first' },
      { a: 'y', b: 2, c: 'second' },
      { a: 'z', b: null, c: 'third' },
      { a: 'w', b: 4, c: 'fourth' },
    ]);
    db.close();
  });

  it('values named in another order than kysely binds them are never cached under that shape', () => {
    const build = (a: string, b: string) => q.selectFrom('_mini_dbt_runs').select('status').where('invocation_id', '=', a).where('command', '=', b);
    // Named backwards: the compiled query's own parameters are used, and nothing is cached.
    expect(compiledOnce('test: backwards', ['b1', 'a1'], () => build('a1', 'b1')).parameters).toEqual(['a1', 'b1']);
    expect(compiledOnce('test: backwards', ['b2', 'a2'], () => build('a2', 'b2')).parameters).toEqual(['a2', 'b2']);
    // Named right: cached, so the second call's build is not even called.
    expect(compiledOnce('test: in order', ['a1', 'b1'], () => build('a1', 'b1')).parameters).toEqual(['a1', 'b1']);
    const second = compiledOnce('test: in order', ['a2', 'b2'], () => { throw new Error('compiled again'); });
    expect(second).toEqual({ sql: expect.stringContaining('"invocation_id" = ?'), parameters: ['a2', 'b2'] });
  });

  it('a run started and finished twice records each run', () => {
    const db = openWarehouse(':memory:');
    expect(ledgerIsCurrent(db)).toBe(false);
    migrateLedger(db);
    expect(ledgerIsCurrent(db)).toBe(true);
    for (const [id, status] of [['run-1', 'success'], ['run-2', 'error']] as const) {
      startRun(db, { invocationId: id, command: 'run', commandLine: `mini-dbt run ${id}`, vars: { n: id }, owner: { pid: 7, host: 'h', process_start: null } });
      finishRun(db, id, status);
    }
    expect(runByInvocation(db, 'run-1')).toMatchObject({ command_line: 'mini-dbt run run-1', vars_json: '{"n":"run-1"}', status: 'success', pid: 7 });
    expect(runByInvocation(db, 'run-2')).toMatchObject({ command_line: 'mini-dbt run run-2', status: 'error' });
    db.close();
  });
});
