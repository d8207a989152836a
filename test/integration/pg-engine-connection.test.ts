import { afterAll, beforeAll, expect, it } from 'vitest';
import { MultipleStatementsError } from '../../src/engine/connection.js';
import { openPostgres } from '../../src/engine/postgres/open-postgres.js';
import type { PostgresConnection } from '../../src/engine/postgres/pg-connection.js';
import { closeIdlePostgresConnections } from '../../src/engine/postgres/pg-sync-client.js';
import { postgresDialect } from '../../src/engine/postgres/pg-dialect.js';
import type { PostgresSettings } from '../../src/project/target.js';
import { describePg, freshPgDatabase, type PgTestTarget } from '../support/pg-test-database.js';

/**
 * The PostgreSQL engine's connection (issue 17): the synchronous interface
 * the rest of the tool uses, over the asynchronous driver on a worker
 * thread, against the run's throwaway server.
 */
describePg('the PostgreSQL connection answers synchronously, as the SQLite one does', () => {
  let place: PgTestTarget;
  let db: PostgresConnection;
  const settings = (): PostgresSettings => ({ host: place.host, port: place.port, user: place.user, password: place.password, dbname: place.database, connectTimeout: 10 });

  beforeAll(async () => {
    place = await freshPgDatabase('conn');
    db = openPostgres('pg', { busyTimeoutMs: 2000 }, settings(), 'analytics');
  });
  afterAll(async () => {
    db?.close();
    await place?.drop();
  });

  it('binds ? and named parameters, returns rows as objects, values and arrays', () => {
    db.exec('create table t (id bigint, amount numeric(12,2), day date, note text)');
    expect(db.run('insert into t values (?, ?, ?, ?), (?, ?, ?, ?)', 1, '12.50', '2024-01-02', "it's", 2, 7, '2024-01-03', null).changes).toBe(2);
    expect(db.all('select * from t order by id')).toEqual([
      { id: 1, amount: 12.5, day: '2024-01-02', note: "it's" },
      { id: 2, amount: 7, day: '2024-01-03', note: null },
    ]);
    expect(db.value('select count(*) from t where note = ? or note is null', "it's")).toBe(2);
    expect(db.values('select id from t where id >= :low order by id', { low: 1 })).toEqual([1, 2]);
    const statement = db.prepare('select id, day from t order by id');
    expect(statement.returnsRows).toBe(true);
    expect(statement.columnNames()).toEqual(['id', 'day']);
    expect(statement.rows()).toEqual([[1, '2024-01-02'], [2, '2024-01-03']]);
    // A question mark inside a literal is not a parameter.
    expect(db.value("select '?' || ?", 'x')).toBe('?x');
  });

  it('refuses a text holding two statements in prepare, and runs it as a script', () => {
    expect(() => db.prepare('select 1; select 2')).toThrow(MultipleStatementsError);
    expect(db.runScript("insert into t (id) values (3); delete from t where id = 3; select ';'")).toBe(2);
  });

  it('rolls a failed transaction back, and nests savepoints', () => {
    expect(() => db.transaction(() => {
      db.run('insert into t (id) values (?)', 10);
      throw new Error('boom');
    })).toThrow('boom');
    expect(db.value('select count(*) from t where id = 10')).toBe(0);
    db.transaction(() => {
      db.run('insert into t (id) values (?)', 11);
      expect(() => db.transaction(() => {
        db.run('insert into t (id) values (?)', 12);
        throw new Error('inner');
      })).toThrow('inner');
    });
    expect(db.values('select id from t where id > 10 order by id')).toEqual([11]);
    expect(db.inTransaction).toBe(false);
  });

  it('reads the target schema as main: kinds, columns, indexes', () => {
    db.exec('create view v as select id from t');
    db.exec(postgresDialect.createIndex({ name: '"t_id"', table: '"t"', columns: '"id"', unique: false }));
    expect(db.relationKind('t')).toBe('table');
    expect(db.relationKind('v', 'main')).toBe('view');
    expect(db.relationKind('v', 'analytics')).toBe('view');
    expect(db.relationKind('nope')).toBeNull();
    expect(db.relationColumns('t')).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'amount', type: 'numeric(12,2)' },
      { name: 'day', type: 'date' },
      { name: 'note', type: 'text' },
    ]);
    expect(db.relationIndexes('t')).toEqual([{ name: 't_id', columns: ['id'], unique: false }]);
    expect(db.schemaObject('T_ID')).toEqual({ type: 'index', table: 't' });
    expect(db.hasTable('t')).toBe(true);
  });

  it('swaps a table under a view: the view is kept and reads the new table', () => {
    db.exec('create table t_new as select id * 100 as id, amount, day, note from t');
    db.transaction(() => db.withViewsUntouched(() => {
      db.exec('drop table "t"');
      db.exec('alter table "t_new" rename to "t"');
    }));
    expect(db.relationKind('v')).toBe('view');
    expect(db.values('select id from v order by id')).toEqual([100, 200, 1100]);
  });

  it('creates a custom schema on attach and lists it', () => {
    db.attachSchema('analytics_staging', '');
    expect(db.attachedSchemas()).toContain('analytics_staging');
    expect(db.attachedSchemas()[0]).toBe('main');
  });

  it('reports a server error with its SQLSTATE, and the connection stays usable', () => {
    let code: string | undefined;
    try {
      db.exec('select * from no_such_table');
    } catch (err) {
      code = (err as { code?: string }).code;
    }
    expect(code).toBe('42P01');
    expect(db.value('select 1')).toBe(1);
  });

  it('sends a batch of statements in one go, answers each in order, and keeps nothing of a refused batch', () => {
    db.exec('create table b (id int primary key, note text)');
    db.begin();
    try {
      // A statement ending in a line comment does not swallow the next one.
      const batch = db.runBatch(['insert into b values (1, \'a\'), (2, \'b\') -- two rows', 'select * from b limit 0', 'select count(*) from b', 'delete from b where id = 2'])!;
      expect(batch.results.map((r) => r.changes)).toEqual([2, 0, 0, 1]);
      expect(batch.results[1]!.fields).toEqual(['id', 'note']);
      expect(batch.results[2]!.rows).toEqual([[2]]);
      // A batch the server refuses (the duplicate key) is taken back whole: the insert before it too.
      expect(db.runBatch(['insert into b values (5, \'e\')', 'insert into b values (1, \'dup\')'])).toBeUndefined();
      expect(db.values('select id from b order by id')).toEqual([1]);
      // undo takes a clean batch back (a check on its answers failed), and the transaction goes on.
      db.runBatch(['insert into b values (6, \'f\')', 'select 1'])!.undo();
      expect(db.values('select id from b order by id')).toEqual([1]);
      // Placeholders and texts of several statements are not batched (the caller runs them one at a time).
      expect(db.runBatch(['select ?', 'select 1'])).toBeUndefined();
      expect(db.runBatch(['select 1; select 2', 'select 1'])).toBeUndefined();
      db.commit();
    } finally {
      db.rollback();
    }
    expect(db.values('select id from b order by id')).toEqual([1]);
    // Outside a transaction there is no batch.
    expect(db.runBatch(['select 1', 'select 2'])).toBeUndefined();
  });

  it('keeps a closed connection for the next open of the same target, with nothing of its last session left', () => {
    const first = openPostgres('pg', { busyTimeoutMs: 2000 }, settings(), 'analytics');
    const pid = first.value('select pg_backend_pid()');
    first.exec("set statement_timeout = '7s'");
    first.exec('create temp table leftover (id int)');
    first.value('select pg_advisory_lock(4242)');
    first.close();
    first.close(); // twice: still released once
    const second = openPostgres('pg', { busyTimeoutMs: 2000 }, settings(), 'analytics');
    const third = openPostgres('pg', { busyTimeoutMs: 2000 }, settings(), 'analytics');
    try {
      expect(second.value('select pg_backend_pid()')).toBe(pid);
      expect(third.value('select pg_backend_pid()')).not.toBe(pid);
      expect(second.value('show statement_timeout')).toBe('0');
      expect(second.value("select to_regclass('pg_temp.leftover') is null")).toBe(true);
      expect(second.value('select count(*) from pg_locks where locktype = \'advisory\' and pid = ?', pid)).toBe(0);
      expect(second.value('show search_path')).toBe('analytics, public');
    } finally {
      second.close();
      third.close();
    }
    // One ended while idle (an administrator, a restarted server) is replaced by a new connection.
    db.value('select pg_terminate_backend(?)', pid);
    const fourth = openPostgres('pg', { busyTimeoutMs: 2000 }, settings(), 'analytics');
    try {
      expect(fourth.value('select 1')).toBe(1);
    } finally {
      fourth.close();
      closeIdlePostgresConnections();
    }
  });

  it('reads a relation\'s columns with its kind, and reads them again once anything ran since', () => {
    db.exec('create table shape (a int, b numeric(12,2))');
    expect(db.relationKind('shape')).toBe('table');
    expect(db.relationColumns('shape')).toEqual([{ name: 'a', type: 'integer' }, { name: 'b', type: 'numeric(12,2)' }]);
    expect(db.relationKind('shape')).toBe('table');
    db.exec('alter table shape add column c text');
    expect(db.relationColumns('shape').map((c) => c.name)).toEqual(['a', 'b', 'c']);
    expect(db.relationKind('no_such_relation')).toBeNull();
    expect(db.relationColumns('no_such_relation')).toEqual([]);
  });
});
