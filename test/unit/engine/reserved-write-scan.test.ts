import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { reservedWrites } from '../../../src/engine/reserved-write-scan.js';

/** A database with a ledger table (and an index on it), a scratch table and a user table, as a warehouse has them. */
function warehouse(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`create table _mini_dbt_runs (invocation_id text primary key, status text);
    create index _mini_dbt_runs_status on _mini_dbt_runs (status);
    create table orders__mini_dbt_tmp (id int);
    create table mine (id int, status text);
    create table _mini_dbt_auto (id integer primary key autoincrement);
    create table mine_auto (id integer primary key autoincrement);
    insert into _mini_dbt_auto default values;
    insert into mine_auto default values;
    insert into _mini_dbt_runs values ('a', 'success'), ('b', 'error');
    insert into orders__mini_dbt_tmp values (1);
    insert into mine values (1, 'x');`);
  return db;
}

/** The reserved objects' definitions and rows: what a write to them changes. */
function reservedState(db: Database.Database): string {
  const schema = [
    ...db.prepare("select type, name, tbl_name, sql from sqlite_schema where name like '%mini_dbt%' or tbl_name like '%mini_dbt%' order by name").all(),
    ...db.prepare("select * from sqlite_sequence where name like '%mini_dbt%' order by name").all(),
  ];
  const tables = db.prepare("select name from sqlite_schema where type = 'table' and name like '%mini_dbt%' order by name").pluck().all() as string[];
  return JSON.stringify({ schema, rows: tables.map((t) => db.prepare(`select * from "${t}" order by 1`).all()) });
}

/** Every hostile form: each really changes the reserved objects on SQLite (checked below), and the scan names the one it writes. */
const HOSTILE: readonly (readonly [string, string])[] = [
  ['delete from _mini_dbt_runs', '_mini_dbt_runs'],
  ['DELETE FROM "_MINI_DBT_RUNS" where status = \'error\'', '_MINI_DBT_RUNS'],
  ['delete from [_mini_dbt_runs]', '_mini_dbt_runs'],
  ['delete from `_mini_dbt_runs`', '_mini_dbt_runs'],
  ["delete from '_mini_dbt_runs'", '_mini_dbt_runs'],
  ['delete from main._mini_dbt_runs', '_mini_dbt_runs'],
  ['delete/* a comment */from/**/main . "_mini_dbt_runs"', '_mini_dbt_runs'],
  ["update _mini_dbt_runs set status = 'success'", '_mini_dbt_runs'],
  ["update or replace main.[_Mini_Dbt_Runs] set status = 'x'", '_Mini_Dbt_Runs'],
  ["insert into _mini_dbt_runs values ('c', 'success')", '_mini_dbt_runs'],
  ["insert or replace into _mini_dbt_runs values ('a', 'error')", '_mini_dbt_runs'],
  ["replace into _mini_dbt_runs values ('a', 'error')", '_mini_dbt_runs'],
  ["with x as (select 'a' as id) delete from _mini_dbt_runs where invocation_id in (select id from x)", '_mini_dbt_runs'],
  ['drop table _mini_dbt_runs', '_mini_dbt_runs'],
  ['drop table if exists main."_mini_dbt_runs"', '_mini_dbt_runs'],
  ['drop index _mini_dbt_runs_status', '_mini_dbt_runs_status'],
  ['drop table orders__mini_dbt_tmp', 'orders__mini_dbt_tmp'],
  ['alter table _mini_dbt_runs add column note text', '_mini_dbt_runs'],
  ['alter table _mini_dbt_runs rename to runs_gone', '_mini_dbt_runs'],
  ['alter table mine rename to _mini_dbt_mine', '_mini_dbt_mine'],
  ['create table _mini_dbt_extra (x int)', '_mini_dbt_extra'],
  ['create temp table if not exists _mini_dbt_runs (x int)', '_mini_dbt_runs'],
  ['create view "Orders__MINI_DBT_new" as select 1 as x', 'Orders__MINI_DBT_new'],
  ['create unique index if not exists spoil on _mini_dbt_runs (status)', '_mini_dbt_runs'],
  ['create index _mini_dbt_extra_idx on mine (id)', '_mini_dbt_extra_idx'],
  ['create trigger t after insert on _mini_dbt_runs begin select 1; end', '_mini_dbt_runs'],
  ['create trigger t after insert on mine begin delete from _mini_dbt_runs; end', '_mini_dbt_runs'],
  ['create temp trigger t after update of status on main.mine begin update main._mini_dbt_runs set status = new.status; end', '_mini_dbt_runs'],
  ["select 1; delete from _mini_dbt_runs; select 'drop table x'", '_mini_dbt_runs'],
  ["update sqlite_sequence set seq = 9223372036854775807 where name = '_mini_dbt_auto'", '_mini_dbt_auto'],
];

/** Forms that read the reserved tables or write the user's own: never refused. */
const ALLOWED: readonly string[] = [
  'select * from _mini_dbt_runs',
  'insert into mine (id, status) select 2, status from _mini_dbt_runs',
  "update mine set status = (select status from _mini_dbt_runs where invocation_id = 'a')",
  'delete from mine where status in (select status from main._mini_dbt_runs)',
  'create table report as select status, count(*) as n from _mini_dbt_runs group by status',
  'create view run_report as select * from _mini_dbt_runs',
  "insert into mine (id, status) values (3, 'delete from _mini_dbt_runs')",
  '-- drop table _mini_dbt_runs\nselect 1',
  '/* update _mini_dbt_runs set status = 1 */ select 1',
  'insert into mine (id, status) values (1, \'a\') on conflict do update set status = \'b\'',
  "create trigger keep after insert on mine begin insert into mine (id, status) select 9, status from _mini_dbt_runs where invocation_id = 'a'; end",
  'select replace(status, \'a\', \'b\') from _mini_dbt_runs',
  "update sqlite_sequence set seq = 100 where name = 'mine_auto'",
];

describe('reservedWrites: the statements that would create, change or drop mini-dbt\'s own relations', () => {
  it.each(HOSTILE)('finds the reserved write in %s', (sql, name) => {
    expect(reservedWrites(sql).map((w) => w.name)).toContain(name);
  });

  it('every hostile form really changes the reserved objects on SQLite (the list is not made of harmless text)', () => {
    for (const [sql] of HOSTILE) {
      const db = warehouse();
      const before = reservedState(db);
      db.exec(sql);
      // A trigger on the user's table writes the ledger when it fires.
      if (/create (temp )?trigger t after (insert|update of status) on (main\.)?mine/.test(sql)) db.exec("insert into mine values (5, 'y'); update mine set status = 'z'");
      expect(reservedState(db), sql).not.toBe(before);
      db.close();
    }
  });

  it('refuses a foreign key onto a reserved table too (it ties the ledger to a project table: its rows could not be deleted or rewritten freely)', () => {
    expect(reservedWrites('create table fk (run text references _mini_dbt_runs (invocation_id) on delete cascade)')).toMatchObject([{ name: '_mini_dbt_runs', action: 'reference' }]);
    expect(reservedWrites('create table fk (run text references mine (id))')).toEqual([]);
  });

  it.each(ALLOWED)('lets through %s', (sql) => {
    expect(reservedWrites(sql)).toEqual([]);
    const db = warehouse();
    const before = reservedState(db);
    db.exec(sql);
    if (sql.startsWith('create trigger keep')) db.exec("insert into mine values (5, 'y')");
    expect(reservedState(db)).toBe(before);
    db.close();
  });

  it('writable_schema cannot rewrite a ledger table\'s definition: better-sqlite3 opens in SQLITE_DBCONFIG_DEFENSIVE (not in unsafe mode)', () => {
    const edit = "pragma writable_schema = 1; update sqlite_schema set sql = 'create table _mini_dbt_runs (x)' where name = '_mini_dbt_runs'";
    const db = warehouse();
    expect(() => db.exec(edit)).toThrow(/may not be modified/);
    // The same edit goes through once defensive mode is off: the refusal above is DEFENSIVE's.
    db.unsafeMode(true);
    db.exec(edit);
    expect(db.prepare("select sql from sqlite_schema where name = '_mini_dbt_runs'").pluck().get()).toBe('create table _mini_dbt_runs (x)');
    db.close();
  });

  it('reads PostgreSQL\'s forms: comma lists, TRUNCATE, E\'\' strings, a DO block\'s body, U&"" names, rules', () => {
    const pg = (sql: string) => reservedWrites(sql, { postgres: true }).map((w) => `${w.action} ${w.name}`);
    expect(pg('drop table mine, public._mini_dbt_runs cascade')).toEqual(['drop table _mini_dbt_runs']);
    expect(pg('truncate table only mine, _mini_dbt_partitions')).toEqual(['truncate _mini_dbt_partitions']);
    expect(pg("select E'it\\'s'; delete from _mini_dbt_runs; select ''")).toEqual(['delete from _mini_dbt_runs']);
    expect(pg('do $$ begin delete from _mini_dbt_runs; end $$')).toEqual(['delete from _mini_dbt_runs']);
    expect(pg('do $body$begin update _mini_dbt_runs set status = 1; end$body$')).toEqual(['update _mini_dbt_runs']);
    expect(pg('delete from U&"\\005fmini\\005Fdbt_runs"')).toEqual(['delete from _mini_dbt_runs']);
    expect(pg('create rule r as on insert to _mini_dbt_runs do instead nothing')).toEqual(['create rule on _mini_dbt_runs']);
    expect(pg('create index on _mini_dbt_runs (status)')).toEqual(['create index on _mini_dbt_runs']);
    expect(pg('copy _mini_dbt_runs from stdin')).toEqual(['copy into _mini_dbt_runs']);
    expect(pg("select $1, 'x'; insert into mine values ($2)")).toEqual([]);
    expect(pg('copy (select * from _mini_dbt_runs) to stdout')).toEqual([]);
  });
});
