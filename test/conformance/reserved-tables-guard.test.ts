import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describePgProjects } from '../support/engine-under-test.js';

/**
 * SQL the project sends itself (model and seed hooks, sql_header, on-run-start / on-run-end,
 * run_query and `call statement` in any template, run-operation macros, adapter methods, a
 * test's template) may read mini-dbt's own tables but never create, change or drop them (E230):
 * each hostile form is refused before any of it runs, names where it came from and the reserved
 * relation, fails its node (exit 1) while the other nodes build, and leaves the ledger exactly
 * as it was: every row it held before is still there unchanged, and its tables and indexes are
 * defined as before (the run itself appends its own rows).
 */

/** A ledger as the cases see it: the reserved objects' definitions and each reserved table's rows in rowid order. */
interface LedgerState {
  readonly schema: readonly Record<string, unknown>[];
  readonly rows: Readonly<Record<string, readonly Record<string, unknown>[]>>;
}

function ledgerState(p: ConformanceProject): LedgerState {
  const schema = p.query("select type, name, tbl_name, sql from sqlite_schema where name like '%mini_dbt%' or tbl_name like '%mini_dbt%' order by type, name");
  const tables = schema.filter((s) => s.type === 'table').map((s) => String(s.name));
  return { schema, rows: Object.fromEntries(tables.map((t) => [t, p.query(`select rowid as _rowid, * from "${t}" order by rowid`)])) };
}

/** Every object and every row of `before` is in `after` as it was (a run may only add rows). */
function expectLedgerKept(before: LedgerState, after: LedgerState): void {
  expect(after.schema).toEqual(before.schema);
  for (const [table, rows] of Object.entries(before.rows)) expect(after.rows[table]!.slice(0, rows.length), table).toEqual(rows);
}

const REFUSED = /reserved namespace/;

let base: ConformanceProject;
beforeAll(() => {
  base = conformanceProject({
    'models/mine.sql': "{{ config(materialized='table') }}\nselect 1 as id, 'x' as status\n",
    'models/other.sql': "{{ config(materialized='table') }}\nselect 2 as id\n",
    'seeds/things.csv': 'id,name\n1,a\n',
  }, 'guard');
  // Two runs: the ledger holds runs, node runs and a seed's row before any case.
  for (const args of [['seed'], ['run']]) {
    const out = base.dbt(args);
    expect(out.code, out.stdout + out.stderr).toBe(0);
  }
  expect(base.count('_mini_dbt_runs')).toBeGreaterThanOrEqual(2);
  expect(base.count('_mini_dbt_node_runs')).toBeGreaterThanOrEqual(3);
});

/** A copy of the built project with `files` written: the command run, the ledger compared. */
function hostile(files: Readonly<Record<string, string>>, args: readonly string[]) {
  const p = base.copy();
  for (const [path, text] of Object.entries(files)) p.write(path, text.replaceAll('<warehouse>', join(p.dir, 'warehouse.db')));
  const before = ledgerState(p);
  const out = p.dbt(args);
  expectLedgerKept(before, ledgerState(p));
  return { p, out, said: out.stdout + out.stderr };
}

const model = (config: string, sql = "select 3 as id") => `{{ config(materialized='table', ${config}) }}\n${sql}\n`;

describe('project SQL may not write mini-dbt\'s own tables (SQLite)', () => {
  it.each([
    ['a post_hook deleting the partitions ledger', 'post_hook="delete from _mini_dbt_partitions"', '_mini_dbt_partitions', 'delete from'],
    ['a pre_hook dropping the runs ledger', 'pre_hook="drop table _mini_dbt_runs"', '_mini_dbt_runs', 'drop table'],
    ['a post_hook updating it quoted in another case', `post_hook='update "_MINI_DBT_RUNS" set status = \\'error\\''`, '_MINI_DBT_RUNS', 'update'],
    ['a post_hook writing it through main. and brackets, after a comment', "post_hook='/* tidy */ insert into main.[_mini_dbt_node_runs] (invocation_id) values (1)'", '_mini_dbt_node_runs', 'insert into'],
    ['a post_hook (transaction: false) attaching the warehouse again and deleting through the alias',
      "post_hook={'sql': \"attach '<warehouse>' as w; delete from w._mini_dbt_runs\", 'transaction': false}", '_mini_dbt_runs', 'delete from'],
    ['a pre_hook creating a trigger on the user\'s own table whose body writes the ledger',
      "pre_hook='create trigger spoil after insert on mine begin delete from _mini_dbt_node_runs; end'", '_mini_dbt_node_runs', 'delete from'],
    ['a post_hook putting a unique index on a ledger table', "post_hook='create unique index spoil on _mini_dbt_runs (status)'", '_mini_dbt_runs', 'create index on'],
    ['a post_hook taking another model\'s scratch name', "post_hook='create table other__mini_dbt_tmp as select 1 as x'", 'other__mini_dbt_tmp', 'create table'],
    ['a post_hook renaming the ledger away', "post_hook='alter table _mini_dbt_runs rename to old_runs'", '_mini_dbt_runs', 'alter table'],
    ['a templated post_hook calling an adapter method on the ledger',
      "post_hook=\"{% do adapter.drop_relation(api.Relation.create(identifier='_mini_dbt_runs')) %}select 1\"", '_mini_dbt_runs', 'drop'],
    ['a post_hook whose run_query deletes from the ledger', "post_hook=\"{% do run_query('delete from _mini_dbt_runs') %}select 1\"", '_mini_dbt_runs', 'delete from'],
    ['the sql_header', 'sql_header="delete from _mini_dbt_runs;"', '_mini_dbt_runs', 'delete from'],
  ])('%s: refused, the model fails (exit 1), the others build', (_name, config, name, action) => {
    const { p, out, said } = hostile({ 'models/victim.sql': model(config) }, ['run']);
    expect(out.code, said).toBe(1);
    expect(said).toMatch(REFUSED);
    expect(said).toContain(`would ${action} '${name}'`);
    expect(said).toContain("of model 'victim'");
    expect(out.statuses['model.guard.victim']).toBe('error');
    expect(out.statuses['model.guard.other']).toBe('success');
    // Nothing of a refused pre-hook's text ran: no trigger, no index, no table under the scratch name.
    expect(p.query("select name from sqlite_schema where name in ('spoil', 'other__mini_dbt_tmp', 'old_runs')")).toEqual([]);
  });

  it('run_query and call statement in a model\'s own SQL are refused with the file and line', () => {
    const { out, said } = hostile({
      'models/victim.sql': "select 1 as id\n{% if execute %}\n{% do run_query('delete from \"_mini_dbt_runs\"') %}\n{% endif %}\n",
      'models/victim2.sql': "{% call statement('x') %}drop table _mini_dbt_node_runs{% endcall %}\nselect 1 as id\n",
    }, ['run']);
    expect(out.code, said).toBe(1);
    expect(said).toMatch(/models\/victim\.sql:3(:\d+)?: run_query in 'victim' would delete from '_mini_dbt_runs'/);
    expect(said).toContain("statement('x') in 'victim2' would drop table '_mini_dbt_node_runs'");
    expect(out.statuses['model.guard.other']).toBe('success');
  });

  it('a run-operation macro is refused: exit 1, the ledger kept', () => {
    const { out, said } = hostile({
      'macros/wipe.sql': "{% macro wipe() %}{% do run_query('delete from _mini_dbt_partitions; delete from _mini_dbt_runs') %}{% endmacro %}\n",
    }, ['run-operation', 'wipe']);
    expect(out.code, said).toBe(1);
    expect(said).toContain("would delete from '_mini_dbt_partitions'");
  });

  it('an on-run-start hook is refused (the run stops as dbt stops it), and so is an on-run-end hook', () => {
    const start = hostile({
      'dbt_project.yml': "name: guard\nversion: '1.0'\nprofile: default\non-run-start:\n  - \"update _mini_dbt_runs set status = 'error'\"\n",
    }, ['run']);
    expect(start.out.code, start.said).toBe(1);
    expect(start.said).toContain("on-run-start hook 0 would update '_mini_dbt_runs'");
    const end = hostile({
      'dbt_project.yml': "name: guard\nversion: '1.0'\nprofile: default\non-run-end:\n  - \"{{ 'drop table ' ~ '_mini_dbt_node_runs' }}\"\n",
    }, ['run']);
    expect(end.out.code, end.said).toBe(1);
    expect(end.said).toContain("on-run-end hook 0 would drop table '_mini_dbt_node_runs'");
  });

  it('a seed\'s post_hook and a data test\'s run_query are refused', () => {
    const seed = hostile({ 'seeds/things.yml': "seeds:\n  - name: things\n    config:\n      post_hook: \"delete from _mini_dbt_node_runs\"\n" }, ['seed']);
    expect(seed.out.code, seed.said).toBe(1);
    expect(seed.said).toContain("post_hook[0] of seed 'things' would delete from '_mini_dbt_node_runs'");
    const test = hostile({ 'tests/sneaky.sql': "{% if execute %}{% do run_query('delete from _mini_dbt_runs') %}{% endif %}\nselect 1 as id where 1 = 0\n" }, ['test']);
    expect(test.out.code, test.said).toBe(1);
    expect(test.said).toContain("would delete from '_mini_dbt_runs'");
  });

  it('writable_schema cannot edit the ledger\'s definition: better-sqlite3 opens with SQLITE_DBCONFIG_DEFENSIVE', () => {
    const { out, said } = hostile({
      'models/victim.sql': model(`post_hook="pragma writable_schema = 1; update sqlite_master set sql = 'create table _mini_dbt_runs (x)' where name = '_mini_dbt_runs'"`),
    }, ['run']);
    expect(out.code, said).toBe(1);
    expect(said).toContain('table sqlite_master may not be modified');
  });

  it('legitimate project SQL still runs: a hook writing the user\'s own table, one reading the ledger, run_query reading it', () => {
    const p = base.copy();
    p.write('models/victim.sql', model(`post_hook=[
  "create table if not exists run_report as select status, count(*) as n from _mini_dbt_runs group by status",
  "insert into run_report (status, n) select 'nodes', count(*) from main._mini_dbt_node_runs",
  "{% set n = run_query('select count(*) from _mini_dbt_runs').columns[0].values()[0] %}insert into run_report (status, n) values ('seen', {{ n }})",
  "update {{ this }} set id = 30",
]`));
    const runsBefore = p.count('_mini_dbt_runs');
    const out = p.dbt(['run']);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(p.rows('victim')).toEqual([{ id: 30 }]);
    const report = Object.fromEntries(p.rows('run_report').map((r) => [String(r.status), Number(r.n)]));
    expect(report.seen).toBe(runsBefore + 1);
    expect(report.nodes).toBeGreaterThanOrEqual(3);
  });
});

/** The ledger on PostgreSQL (the target's schema): each ledger table's rows as text, in a fixed order. */
function pgLedger(p: ConformanceProject): Record<string, string[]> {
  const tables = p.query("select table_name from information_schema.tables where table_schema = 'public' and table_name like '\\_mini\\_dbt\\_%' order by table_name").map((r) => String(r.table_name));
  return Object.fromEntries(tables.map((t) => [t, p.query(`select t::text as row from "${t}" as t order by 1`).map((r) => String(r.row))]));
}

describePgProjects('project SQL may not write mini-dbt\'s own tables (PostgreSQL: the direct forms)', () => {
  it.each([
    ['a post_hook truncating two tables, the ledger among them', 'post_hook="truncate table mine, _mini_dbt_partitions"', "would truncate '_mini_dbt_partitions'"],
    ['a post_hook deleting through a DO block', "post_hook=\"do $$ begin delete from public._mini_dbt_runs; end $$\"", "would delete from '_mini_dbt_runs'"],
    ['a post_hook dropping through a U&\"\" name', 'post_hook=\'drop table U&"\\\\005fmini_dbt_node_runs"\'', "would drop table '_mini_dbt_node_runs'"],
    ['a post_hook putting a rule on the ledger', "post_hook='create rule spoil as on insert to _mini_dbt_runs do instead nothing'", "would create rule on '_mini_dbt_runs'"],
  ])('%s: refused, the ledger kept', (_name, config, said) => {
    const p = conformanceProject({ 'models/mine.sql': "{{ config(materialized='table') }}\nselect 1 as id\n" }, 'guard_pg', { engine: 'postgres' });
    expect(p.dbt(['run']).code).toBe(0);
    p.write('models/victim.sql', model(config));
    const before = pgLedger(p);
    const out = p.dbt(['run']);
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expect(out.stdout + out.stderr).toContain(said);
    const after = pgLedger(p);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    // The rows before are all there (the run adds its own).
    for (const [table, rows] of Object.entries(before)) expect(after[table]!.filter((r) => rows.includes(r)), table).toEqual(rows);
    expect(out.statuses['model.guard_pg.mine']).toBe('success');
  });

  it.each(['table', 'incremental'])('a %s model whose SELECT deletes from the ledger in a data-modifying WITH is refused (PostgreSQL would run it)', (materialized) => {
    const p = conformanceProject({ 'models/mine.sql': "{{ config(materialized='table') }}\nselect 1 as id\n" }, 'guard_pg', { engine: 'postgres' });
    expect(p.dbt(['run']).code).toBe(0);
    p.write('models/victim.sql', `{{ config(materialized='${materialized}') }}\nwith d as (delete from _mini_dbt_node_runs returning 1) select count(*) as n from d\n`);
    const before = pgLedger(p);
    const out = p.dbt(['run']);
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expect(out.stdout).toContain("the SQL of model 'victim' would delete from '_mini_dbt_node_runs'");
    const after = pgLedger(p);
    for (const [table, rows] of Object.entries(before)) expect(after[table]!.filter((r) => rows.includes(r)), table).toEqual(rows);
  });
});

describe('project SQL that may write: a strategy macro and its own scratch table', () => {
  const STRATEGY = (extra: string) => `{% macro get_incremental_tidy_sql(arg_dict) %}
  delete from {{ arg_dict.temp_relation }} where id is null;${extra}
  insert into {{ arg_dict.target_relation }} (id) select id from {{ arg_dict.temp_relation }}
{% endmacro %}
`;
  const INC = "{{ config(materialized='incremental', incremental_strategy='tidy') }}\nselect 4 as id\n";

  it('a project strategy may write its own model\'s scratch table (temp_relation), not the ledger', () => {
    const ok = base.copy();
    ok.write('macros/tidy.sql', STRATEGY(''));
    ok.write('models/inc.sql', INC);
    for (let n = 0; n < 2; n++) {
      const out = ok.dbt(['run', '-s', 'inc']);
      expect(out.code, out.stdout + out.stderr).toBe(0);
    }
    expect(ok.rows('inc')).toEqual([{ id: 4 }, { id: 4 }]);
    // The incremental run (the first was a full build) runs the strategy: one that also deletes from the ledger is refused.
    ok.write('macros/tidy.sql', STRATEGY('\n  delete from _mini_dbt_runs;'));
    const before = ledgerState(ok);
    const out = ok.dbt(['run', '-s', 'inc']);
    expectLedgerKept(before, ledgerState(ok));
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expect(out.stdout).toContain("the incremental strategy macro of model 'inc' would delete from '_mini_dbt_runs'");
    expect(ok.rows('inc')).toEqual([{ id: 4 }, { id: 4 }]);
  });

  it('a snapshot\'s sql_header writing the ledger is refused, the snapshot fails', () => {
    const { out, said } = hostile({
      'snapshots/snap.sql': "{% snapshot snap %}\n{{ config(unique_key='id', strategy='check', check_cols='all', sql_header='delete from _mini_dbt_runs;') }}\nselect * from {{ ref('mine') }}\n{% endsnapshot %}\n",
    }, ['snapshot']);
    expect(out.code, said).toBe(1);
    expect(said).toContain("the sql_header of snapshot 'snap' would delete from '_mini_dbt_runs'");
  });
});

describe('no node overwrites another node\'s relation or the ledger: snapshots and kept test failures', () => {
  it('a snapshot aliased onto the ledger, or onto a model\'s relation in another case, is refused at load (exit 2), nothing run', () => {
    const snapshot = (alias: string) => `{% snapshot orders_snap %}\n{{ config(unique_key='id', strategy='check', check_cols='all', alias='${alias}') }}\nselect * from {{ ref('mine') }}\n{% endsnapshot %}\n`;
    const ledger = hostile({ 'snapshots/snap.sql': snapshot('_mini_dbt_runs') }, ['build']);
    expect(ledger.out.code, ledger.said).toBe(2);
    expect(ledger.said).toContain("snapshots/snap.sql:2: snapshot 'orders_snap' names the relation '_mini_dbt_runs', which is in mini-dbt's reserved namespace");
    const model = hostile({ 'snapshots/snap.sql': snapshot('MINE') }, ['build']);
    expect(model.out.code, model.said).toBe(2);
    expect(model.said).toContain('found two resources with the database representation "main"."MINE"');
    expect(model.p.rows('mine')).toEqual([{ id: 1, status: 'x' }]);
  });

  it('a test whose kept failures would replace a model\'s table (SQLite: <schema>__<alias> in main) errors, the model\'s rows kept', () => {
    const p = base.copy();
    p.write('models/a__b.sql', "{{ config(materialized='table') }}\nselect 5 as keep_me\n");
    expect(p.dbt(['run', '-s', 'a__b']).code).toBe(0);
    p.write('tests/b.sql', "{{ config(store_failures=true, schema='a', alias='b') }}\nselect * from {{ ref('mine') }}\n");
    p.write('tests/c.sql', "{{ config(store_failures=true, schema='mine', alias='mini_dbt_tmp') }}\nselect * from {{ ref('mine') }}\n");
    const out = p.dbt(['test']);
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expect(out.stdout).toContain('test \'b\' (tests/b.sql) keeps its failing rows (store_failures) in "main"."a__b", which is model.guard.a__b\'s relation');
    expect(out.stdout).toContain('"main"."mine__mini_dbt_tmp", which is in mini-dbt\'s reserved namespace');
    expect(p.rows('a__b')).toEqual([{ keep_me: 5 }]);
    expect(p.relationType('mine__mini_dbt_tmp')).toBeUndefined();
  });
});
