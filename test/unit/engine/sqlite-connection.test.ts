import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MultipleStatementsError } from '../../../src/engine/connection.js';
import { dialect, engine } from '../../../src/engine/current-engine.js';
import { describeSelect } from '../../../src/engine/describe-select.js';
import { isBusyError, openProjectWarehouse, openWarehouse, type Warehouse } from '../../../src/engine/open-warehouse.js';
import { quoteIdentifier, quoteLiteral } from '../../../src/engine/quote-identifier.js';
import { relationIndexes } from '../../../src/engine/relation-indexes.js';
import { relationColumns, relationKind } from '../../../src/engine/relation-kind.js';
import { swapRelation } from '../../../src/engine/swap-relation.js';
import { ProjectError } from '../../../src/errors/project-error.js';

let dir: string;
let path: string;
let db: Warehouse;
const others: Warehouse[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mini-dbt-engine-'));
  path = join(dir, 'warehouse.db');
  db = openWarehouse(path);
});

afterEach(() => {
  for (const other of others.splice(0)) other.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const second = (options: { busyTimeoutMs?: number; readonly?: boolean } = {}) => {
  const other = openWarehouse(path, options);
  others.push(other);
  return other;
};

describe('the SQLite engine', () => {
  it('is the chosen engine, with its dialect', () => {
    expect(engine.name).toBe('sqlite');
    expect(dialect).toBe(engine.dialect);
  });

  it('opens the file in WAL mode and creates missing folders; a read-only open of a missing file says so', () => {
    expect(db.value('pragma journal_mode')).toBe('wal');
    const nested = openWarehouse(join(dir, 'a', 'b', 'w.db'));
    expect(nested.readonly).toBe(false);
    nested.close();
    expect(() => openWarehouse(join(dir, 'missing.db'), { readonly: true })).toThrow(ProjectError);
    expect(() => openWarehouse(join(dir, 'missing.db'), { readonly: true })).toThrow(/does not exist yet/);
  });

  it('refuses a file that is not a database with a clear error', () => {
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'not a database, just text '.repeat(100));
    expect(() => openWarehouse(text)).toThrow(/cannot open warehouse .*notes\.db/);
  });

  it('runs, reads and binds positional, array and named parameters', () => {
    db.exec('create table t (k integer, v text); create index t_k on t (k)');
    expect(db.run('insert into t values (?, ?)', 1, 'a')).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(db.run('insert into t values (?, ?)', [2, 'b']).changes).toBe(1);
    expect(db.run('insert into t values (@k, @v)', { k: 3, v: 'c' }).lastInsertRowid).toBe(3);
    expect(db.get('select v from t where k = ?', 2)).toEqual({ v: 'b' });
    expect(db.all('select k from t order by k')).toEqual([{ k: 1 }, { k: 2 }, { k: 3 }]);
    expect(db.value('select count(*) from t')).toBe(3);
    expect(db.value('select v from t where k = 99')).toBeUndefined();
    expect(db.values('select v from t order by k desc')).toEqual(['c', 'b', 'a']);
  });

  it('prepares once and runs many times; knows whether a statement yields rows', () => {
    db.exec('create table t (k integer, v text)');
    const insert = db.prepare('insert into t values (?, ?), (?, ?)');
    expect(insert.returnsRows).toBe(false);
    for (let i = 0; i < 100; i++) insert.run([2 * i, 'x', 2 * i + 1, 'y']);
    const select = db.prepare<{ k: number; v: string }>('select k, v from t where k < ? order by k');
    expect(select.returnsRows).toBe(true);
    expect(select.columnNames()).toEqual(['k', 'v']);
    expect(select.all(2)).toEqual([{ k: 0, v: 'x' }, { k: 1, v: 'y' }]);
    expect(select.get(2)).toEqual({ k: 0, v: 'x' });
    expect(select.value(2)).toBe(0);
    expect(select.values(3)).toEqual([0, 1, 2]);
    expect(select.rows(2)).toEqual([[0, 'x'], [1, 'y']]);
    expect([...select.iterate(2)].map((r) => r.v)).toEqual(['x', 'y']);
    // The modes do not leak into each other.
    expect(select.all(1)).toEqual([{ k: 0, v: 'x' }]);
  });

  it('refuses a text holding two statements in prepare, and runs it as a script with its change count', () => {
    db.exec('create table t (k integer)');
    expect(() => db.prepare('insert into t values (1); insert into t values (2)')).toThrow(MultipleStatementsError);
    expect(() => db.run('insert into t values (1); drop table t')).toThrow(MultipleStatementsError);
    expect(db.value('select count(*) from t')).toBe(0);
    expect(db.runScript('insert into t values (1); insert into t values (2), (3); delete from t where k = 1')).toBe(4);
    expect(db.values('select k from t order by k')).toEqual([2, 3]);
  });
});

describe('transactions', () => {
  it('a transaction that throws leaves the table as it was', () => {
    db.exec("create table t (k integer primary key, v text); insert into t values (1, 'a'), (2, 'b')");
    const before = db.all('select * from t order by k');
    expect(() => db.transaction(() => {
      db.run('delete from t where k = 1');
      db.run("update t set v = 'changed'");
      db.exec('create table other (x)');
      expect(db.inTransaction).toBe(true);
      throw new Error('boom');
    })).toThrow('boom');
    expect(db.inTransaction).toBe(false);
    expect(db.all('select * from t order by k')).toEqual(before);
    expect(db.relationKind('other')).toBeNull();
  });

  it('begin / rollback undo the writes; begin / commit keep them; rollback without a transaction does nothing', () => {
    db.exec('create table t (k integer)');
    db.begin();
    db.run('insert into t values (1)');
    db.rollback();
    expect(db.value('select count(*) from t')).toBe(0);
    db.rollback();
    db.begin();
    db.run('insert into t values (2)');
    expect(db.inTransaction).toBe(true);
    db.commit();
    expect(db.inTransaction).toBe(false);
    expect(db.values('select k from t')).toEqual([2]);
    expect(db.transaction(() => db.run('insert into t values (3)').changes)).toBe(1);
    expect(db.values('select k from t order by k')).toEqual([2, 3]);
  });

  it('begin takes the write lock: another connection waits its busy timeout, then fails with a busy error', () => {
    db.exec('create table t (k integer)');
    db.begin();
    const other = second({ busyTimeoutMs: 250 });
    const t0 = performance.now();
    let error: unknown;
    try {
      other.begin();
    } catch (err) {
      error = err;
    }
    const waited = performance.now() - t0;
    expect(error).toBeInstanceOf(Error);
    expect(isBusyError(error)).toBe(true);
    expect(engine.isBusyError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/database is locked/);
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThan(5000);
    // A reader is not blocked by the writer (WAL).
    expect(second({ readonly: true }).value('select count(*) from t')).toBe(0);
    db.rollback();
    other.begin();
    other.commit();
    expect(isBusyError(new Error('no such table: x'))).toBe(false);
  });

  it("a project's warehouse is opened with the project's busy timeout, unless one is given", () => {
    db.begin();
    const timed = (open: () => Warehouse) => {
      const other = open();
      others.push(other);
      const t0 = performance.now();
      expect(() => other.begin()).toThrow(/database is locked/);
      return performance.now() - t0;
    };
    const project = { databasePath: path, busyTimeoutMs: 300 };
    expect(timed(() => openProjectWarehouse(project))).toBeGreaterThanOrEqual(250);
    expect(timed(() => openProjectWarehouse(project, { busyTimeoutMs: 0 }))).toBeLessThan(250);
    db.rollback();
  });

  it('setBusyTimeout changes the wait: 0 gives up at once', () => {
    db.begin();
    const other = second({ busyTimeoutMs: 10_000 });
    other.setBusyTimeout(0);
    const t0 = performance.now();
    expect(() => other.begin()).toThrow(/database is locked/);
    expect(performance.now() - t0).toBeLessThan(1000);
    db.rollback();
  });
});

describe('quoting', () => {
  const HOSTILE = ['plain', 'with space', 'dou"ble', '"', '""', "sin'gle", 'select', 'drop table t; --', 'ünïcödé 表', 'a.b', '[x]', '`y`', 'UPPER', ' lead', 'tab\tname'];

  it('round-trips hostile identifiers as table, column, view and index names', () => {
    for (const [i, name] of HOSTILE.entries()) {
      const table = `${name}_t${i}`;
      const view = `${name}_v${i}`;
      const q = quoteIdentifier;
      db.exec(`create table ${q(table)} (${q(name)} text, ${q(`${name}2`)} integer)`);
      db.exec(`create unique index ${q(`${name}_i${i}`)} on ${q(table)} (${q(name)})`);
      db.exec(`create view ${q(view)} as select ${q(name)} from ${q(table)}`);
      db.run(`insert into ${q(table)} values (?, ?)`, name, i);
      expect(relationKind(db, table)).toBe('table');
      expect(relationKind(db, view)).toBe('view');
      expect(relationColumns(db, table).map((c) => c.name)).toEqual([name, `${name}2`]);
      expect(relationColumns(db, view).map((c) => c.name)).toEqual([name]);
      expect(relationIndexes(db, table)).toEqual([{ name: `${name}_i${i}`, columns: [name], unique: true }]);
      expect(db.value(`select ${q(name)} from ${q(view)}`)).toBe(name);
    }
  });

  it('round-trips hostile literals', () => {
    for (const value of HOSTILE) expect(db.value(`select ${quoteLiteral(value)}`)).toBe(value);
    expect(dialect.quoteIdentifier('a"b')).toBe('"a""b"');
    expect(dialect.quoteLiteral("it's")).toBe("'it''s'");
  });
});

describe('introspection', () => {
  it('tells tables from views from nothing, lists columns with declared types, and the named indexes', () => {
    db.exec(`
      create table orders (id integer primary key, day text not null, amount real, note, code text unique);
      create index orders_day on orders (day, amount);
      create unique index orders_expr on orders (lower(note));
      create view daily as select day, sum(amount) as total from orders group by day;`);
    expect(relationKind(db, 'orders')).toBe('table');
    expect(relationKind(db, 'daily')).toBe('view');
    expect(relationKind(db, 'nothing')).toBeNull();
    expect(relationKind(db, 'orders_day')).toBeNull();
    expect(relationColumns(db, 'orders')).toEqual([
      { name: 'id', type: 'INTEGER' }, { name: 'day', type: 'TEXT' }, { name: 'amount', type: 'REAL' }, { name: 'note', type: '' }, { name: 'code', type: 'TEXT' },
    ]);
    expect(relationColumns(db, 'daily').map((c) => c.name)).toEqual(['day', 'total']);
    expect(relationColumns(db, 'nothing')).toEqual([]);
    const indexes = relationIndexes(db, 'orders').sort((a, b) => a.name.localeCompare(b.name));
    expect(indexes).toEqual([
      { name: 'orders_day', columns: ['day', 'amount'], unique: false },
      { name: 'orders_expr', columns: [''], unique: true },
    ]);
    // The index behind the UNIQUE constraint is listed only when asked for.
    expect(db.relationIndexes('orders', { withConstraints: true }).some((i) => i.columns[0] === 'code' && i.unique)).toBe(true);
    expect(db.schemaObject('ORDERS_DAY')).toEqual({ type: 'index', table: 'orders' });
    expect(db.schemaObject('nope')).toBeUndefined();
    expect(db.hasTable('orders')).toBe(true);
    expect(db.hasTable('daily')).toBe(false);
  });

  it('reads the temporary schema apart from the main one, on a read-only connection too', () => {
    db.exec('create table t (a integer)');
    const reader = second({ readonly: true });
    reader.exec(dialect.createTableAs(dialect.tempRelation('t'), 'select 1 as x, 2 as y'));
    expect(reader.relationColumns('t', { temp: true }).map((c) => c.name)).toEqual(['x', 'y']);
    expect(reader.relationColumns('t').map((c) => c.name)).toEqual(['a']);
    // The columns CREATE TABLE AS would make, without reading a row, and nothing left behind.
    expect(describeSelect(reader, "select a, 'x' as s from main.t")).toEqual([{ name: 'a', type: 'INT' }, { name: 's', type: '' }]);
    expect(reader.values("select name from temp.sqlite_master where type = 'table'")).toEqual(['t']);
  });
});

describe('DDL', () => {
  it('swaps a staged table in; a view on the old table keeps working and sees the new rows', () => {
    db.exec("create table t (k integer); insert into t values (1); create view v as select k from t; create table t_new (k integer); insert into t_new values (2), (3)");
    db.transaction(() => swapRelation(db, 't_new', 't'));
    expect(relationKind(db, 't_new')).toBeNull();
    expect(db.values('select k from v order by k')).toEqual([2, 3]);
    expect(db.value('pragma legacy_alter_table')).toBe(0);
  });

  it('a swap rolled back leaves the old table', () => {
    db.exec('create table t (k integer); insert into t values (1); create table t_new (k integer)');
    expect(() => db.transaction(() => {
      swapRelation(db, 't_new', 't');
      throw new Error('after the swap');
    })).toThrow('after the swap');
    expect(db.values('select k from t')).toEqual([1]);
    expect(relationKind(db, 't_new')).toBe('table');
  });

  it('copies the whole warehouse to a new file, from a read-only connection', () => {
    db.exec("create table t (k text); insert into t values ('kept')");
    const copy = join(dir, 'copy.db');
    second({ readonly: true }).copyTo(copy);
    const copied = openWarehouse(copy, { readonly: true });
    others.push(copied);
    expect(copied.values('select k from t')).toEqual(['kept']);
  });

  it("builds dbt's MERGE as statements: match by key and predicates, update the matched, insert the rest (duplicates too)", () => {
    db.exec("create table t (k integer, v text); insert into t values (1, 'a'), (3, 'keep'); create table n (k integer, v text); insert into n values (1, 'b'), (2, 'c'), (2, 'd'), (3, 'x')");
    const merge = dialect.merge({ target: '"t"', source: '"n"', matchTable: 'm', keys: ['"k"'], columns: ['"k"', '"v"'], update: ['v'], predicates: ["DBT_INTERNAL_DEST.v != 'keep'"] });
    db.exec(merge.match);
    expect(Number(db.value(merge.doubleMatch))).toBe(0);
    db.exec(merge.update!);
    db.exec(merge.insert);
    // 1 matched and updated; 2 matched nothing (both rows inserted); 3's old row fails the predicate, so its new row is inserted too.
    expect(db.all('select k, v from t order by k, v')).toEqual([{ k: 1, v: 'b' }, { k: 2, v: 'c' }, { k: 2, v: 'd' }, { k: 3, v: 'keep' }, { k: 3, v: 'x' }]);
    expect(dialect.merge({ target: '"t"', source: '"n"', matchTable: 'm', keys: ['"k"'], columns: ['"k"'], update: [], predicates: [] }).update).toBeUndefined();
  });

  it('speaks the date arithmetic of the tool\'s own queries', () => {
    const day = (v: string) => db.value(`select ${dialect.dayOrText('@v')}`, { v });
    expect(day('2026-09-02T23:30:00')).toBe('2026-09-02');
    expect(day('not a date')).toBe('not a date');
    expect(db.value(`select ${dialect.dayNumber(dialect.dateOf("'2026-09-03'"))} - ${dialect.dayNumber(dialect.dateOf("'2026-09-01 10:00'"))}`)).toBe(2);
    expect(['VARCHAR(10)', 'BIGINT', 'CHARINT', '', 'DOUBLE', 'FLOATING POINT', 'DECIMAL(10,2)', 'BLOB'].map(dialect.typeAffinity)).toEqual(['TEXT', 'INTEGER', 'INTEGER', 'BLOB', 'REAL', 'INTEGER', 'NUMERIC', 'BLOB']);
  });
});
