import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describePgProjects, pgProjectDatabase, pgReader, withReader } from '../support/engine-under-test.js';
import { writeProject } from '../support/example-project.js';
import { pgOutputYaml, type PgTestTarget } from '../support/pg-test-database.js';
import { runCli, type CliResult } from '../support/run-cli.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * Profiles, targets and schemas, as dbt-sqlite has them: profiles.yml found
 * the way dbt finds it, `--target` choosing the output, `schemas_and_paths`
 * and `schema_directory` giving each schema a database file that is
 * attached, dbt's generate_schema_name, and relations rendered
 * schema-qualified (`"main"."orders"`), so the import-CTE style works.
 * Each case: a project, the commands, and the rows in the files afterwards.
 * The cases about where profiles, targets and files are found, and about
 * what the CLI prints, spawn it; the cases about what lands in a schema run
 * their commands in process (the API the CLI calls).
 */

const PROFILE = `shop:
  target: dev
  outputs:
    dev:
      type: sqlite
      threads: 1
      database: database
      schema: main
      schemas_and_paths:
        main: "{{ env_var('SHOP_DATA', 'data') }}/dev.db"
        raw: data/raw.db
      schema_directory: data/dev
    prod:
      type: sqlite
      database: database
      schema: main
      schemas_and_paths:
        main: data/prod.db
        raw: data/raw.db
      schema_directory: data/prod
`;

const FILES: Record<string, string> = {
  'dbt_project.yml': `name: shop
profile: shop
models:
  shop:
    marts:
      +schema: marts
      +materialized: table
seeds:
  shop:
    +schema: seeds
`,
  'profiles.yml': PROFILE,
  'models/sources.yml': 'sources:\n  - name: raw\n    tables: [{name: orders}]\n',
  'seeds/regions.csv': 'region,label\nn,North\ns,South\n',
  // The import-CTE style dbt recommends: the CTE has the name of the relation it reads.
  'models/stg_orders.sql': "{{ config(materialized='table') }}\nwith orders as (select * from {{ source('raw', 'orders') }})\nselect * from orders\n",
  'models/marts/region_totals.sql': `with stg_orders as (select * from {{ ref('stg_orders') }}),
regions as (select * from {{ ref('regions') }})
select r.label, sum(o.amount) as total, '{{ target.name }}' as target_name, '{{ this }}' as me
from stg_orders o join regions r on r.region = o.region group by 1
`,
};

function seedRaw(dir: string): void {
  mkdirSync(join(dir, 'data'), { recursive: true });
  const db = new Database(join(dir, 'data/raw.db'));
  db.exec("create table orders (id integer, region text, amount integer); insert into orders values (1, 'n', 10), (2, 'n', 5), (3, 's', 7);");
  db.close();
}

function rowsOf(file: string, sql: string): Record<string, unknown>[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const tablesOf = (file: string) => rowsOf(file, "select name from sqlite_master where type in ('table', 'view') and name not like '\\_mini\\_dbt%' escape '\\' and name not like 'sqlite\\_%' escape '\\' order by 1").map((r) => r.name);

function dbt(dir: string, args: readonly string[], env: Record<string, string> = {}): CliResult {
  return runCli([...args, '--project-dir', dir], { cwd: dir, env });
}

function project(extra: Record<string, string> = {}): string {
  const dir = writeProject({ ...FILES, ...extra });
  seedRaw(dir);
  return dir;
}

// SQLite only: a dbt-sqlite schema is a database file of its own (schemas_and_paths, schema_directory);
// the PostgreSQL counterpart, where schemas are schemas of one database, follows.
describe('a dbt-sqlite profile: schemas are attached database files', () => {
  it('build: sources read from their schema, models and seeds land in <target schema>_<custom>, refs render schema-qualified', () => {
    const dir = project();
    const r = dbt(dir, ['build']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // Each schema is its own file: main is the profile's main path, custom schemas are created in schema_directory.
    expect(tablesOf(join(dir, 'data/dev.db'))).toEqual(['stg_orders']);
    expect(tablesOf(join(dir, 'data/dev/main_marts.db'))).toEqual(['region_totals']);
    expect(tablesOf(join(dir, 'data/dev/main_seeds.db'))).toEqual(['regions']);
    expect(rowsOf(join(dir, 'data/dev/main_marts.db'), 'select * from region_totals order by 1')).toEqual([
      { label: 'North', total: 15, target_name: 'dev', me: '"main_marts"."region_totals"' },
      { label: 'South', total: 7, target_name: 'dev', me: '"main_marts"."region_totals"' },
    ]);
    // The log names each relation in its schema, and run_results.json gives dbt-sqlite's relation_name.
    expect(r.stdout).toContain('sql table model main_marts.region_totals');
    expect(r.stdout).toContain('seed file main_seeds.regions');
    const results = JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: { unique_id: string; relation_name: string }[] };
    expect(results.results.find((x) => x.unique_id === 'model.shop.region_totals')!.relation_name).toBe('"main_marts"."region_totals"');
    // The ledger lives in the target's main file.
    expect(rowsOf(join(dir, 'data/dev.db'), 'select count(*) as n from _mini_dbt_node_runs')[0]!.n).toBeGreaterThan(0);
    // Idempotent: the same command again gives the same tables.
    expect(dbt(dir, ['build']).code).toBe(0);
    expect(rowsOf(join(dir, 'data/dev/main_marts.db'), 'select label, total from region_totals order by 1')).toEqual([{ label: 'North', total: 15 }, { label: 'South', total: 7 }]);
  });

  it('--target chooses the output: another main file, other schema files, its own ledger; env_var() sets a path', () => {
    const dir = project();
    const prod = dbt(dir, ['build', '--target', 'prod']);
    expect(prod.code, prod.stdout + prod.stderr).toBe(0);
    expect(existsSync(join(dir, 'data/dev.db'))).toBe(false);
    expect(rowsOf(join(dir, 'data/prod/main_marts.db'), 'select target_name from region_totals limit 1')).toEqual([{ target_name: 'prod' }]);
    expect(rowsOf(join(dir, 'data/prod.db'), "select count(*) as n from _mini_dbt_node_runs where model = 'region_totals'")[0]!.n).toBe(1);
    // DBT_TARGET works as --target does; SHOP_DATA moves the dev main file through env_var().
    mkdirSync(join(dir, 'elsewhere'));
    expect(dbt(dir, ['run', '-s', 'stg_orders'], { SHOP_DATA: 'elsewhere' }).code).toBe(0);
    expect(tablesOf(join(dir, 'elsewhere/dev.db'))).toEqual(['stg_orders']);
  });

  it('--database still wins over the target\'s main file', () => {
    const dir = project();
    expect(dbt(dir, ['run', '-s', 'stg_orders', '--database', join(dir, 'override.db')]).code).toBe(0);
    expect(tablesOf(join(dir, 'override.db'))).toEqual(['stg_orders']);
    expect(existsSync(join(dir, 'data/dev.db'))).toBe(false);
  });

  it('--profiles-dir and DBT_PROFILES_DIR name the folder that holds profiles.yml', () => {
    const dir = project({ 'profiles.yml': '' });
    const elsewhere = writeProject({ 'profiles.yml': PROFILE });
    // Without a usable profile the project names a profile that is not there: dbt's error, listing the profiles found.
    const missing = dbt(dir, ['run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("profile 'shop' not found; profiles there: (none)");
    expect(dbt(dir, ['run', '-s', 'stg_orders', '--profiles-dir', elsewhere]).code).toBe(0);
    expect(tablesOf(join(dir, 'data/dev.db'))).toEqual(['stg_orders']);
    expect(dbt(dir, ['run', '-s', 'stg_orders', '--target', 'prod'], { DBT_PROFILES_DIR: elsewhere }).code).toBe(0);
    expect(tablesOf(join(dir, 'data/prod.db'))).toEqual(['stg_orders']);
  });

  it('a project generate_schema_name macro decides the schema (here: the custom schema as it is written)', async () => {
    const dir = project({
      'macros/generate_schema_name.sql': `{% macro generate_schema_name(custom_schema_name, node) -%}
{%- if custom_schema_name is none -%}{{ target.schema }}{%- else -%}{{ custom_schema_name | trim }}{%- endif -%}
{%- endmacro %}`,
    });
    await succeedingRun(dir, { command: 'build' });
    expect(tablesOf(join(dir, 'data/dev/marts.db'))).toEqual(['region_totals']);
    expect(tablesOf(join(dir, 'data/dev/seeds.db'))).toEqual(['regions']);
  });

  it('generate_schema_name sees var() (the project\'s vars and --vars), as dbt\'s macros do', async () => {
    const dir = project({
      'macros/generate_schema_name.sql': `{% macro generate_schema_name(custom_schema_name, node) -%}
{%- if custom_schema_name is none -%}{{ target.schema }}{%- else -%}{{ var('schema_prefix', 'x') }}_{{ custom_schema_name | trim }}{%- endif -%}
{%- endmacro %}`,
    });
    await succeedingRun(dir, { command: 'build', vars: { schema_prefix: 'ci' } });
    expect(tablesOf(join(dir, 'data/dev/ci_marts.db'))).toEqual(['region_totals']);
  });

  it('incremental models in a custom schema: delete+insert, merge (its unique index) and on_schema_change work in that file', async () => {
    const dir = project({
      'models/marts/orders_di.sql': "{{ config(materialized='incremental', unique_key='id') }}\nselect id, amount from {{ ref('stg_orders') }}\n{% if is_incremental() %}where id >= (select max(id) from {{ this }}){% endif %}\n",
      'models/marts/orders_merge.sql': "{{ config(materialized='incremental', incremental_strategy='merge', unique_key='id', on_schema_change='append_new_columns') }}\nselect id, amount{% if var('extra', false) %}, region{% endif %} from {{ ref('stg_orders') }}\n",
    });
    await succeedingRun(dir, { command: 'build' });
    const raw = new Database(join(dir, 'data/raw.db'));
    raw.exec("update orders set amount = 11 where id = 3; insert into orders values (4, 's', 1);");
    raw.close();
    await succeedingRun(dir, { vars: { extra: true } });
    const marts = join(dir, 'data/dev/main_marts.db');
    expect(rowsOf(marts, 'select id, amount from orders_di order by id')).toEqual([{ id: 1, amount: 10 }, { id: 2, amount: 5 }, { id: 3, amount: 11 }, { id: 4, amount: 1 }]);
    expect(rowsOf(marts, 'select id, amount, region from orders_merge order by id')).toEqual([
      { id: 1, amount: 10, region: 'n' }, { id: 2, amount: 5, region: 'n' }, { id: 3, amount: 11, region: 's' }, { id: 4, amount: 1, region: 's' },
    ]);
    // The indexes were created in the schema's own file.
    expect(rowsOf(marts, "select name from sqlite_master where type = 'index' and tbl_name = 'orders_merge'").length).toBeGreaterThan(0);
  });

  it('adapter.get_relation and get_columns_in_relation look in the relation\'s schema', async () => {
    const dir = project({
      'models/marts/introspect.sql': `{%- set rel = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
{%- set cols = adapter.get_columns_in_relation(ref('region_totals')) -%}
select '{{ this.schema }}' as schema_name, {{ 'true' if rel else 'false' }} as existed, {{ cols | length }} as upstream_columns
`,
    });
    await succeedingRun(dir, { command: 'build' });
    await succeedingRun(dir, { select: ['introspect'] });
    expect(rowsOf(join(dir, 'data/dev/main_marts.db'), 'select * from introspect')).toEqual([{ schema_name: 'main_marts', existed: 1, upstream_columns: 4 }]);
  });

  it('a view reading another schema fails that model, saying why (SQLite keeps a view inside its file, as dbt-sqlite documents)', () => {
    const dir = project({ 'models/stg_orders.sql': "with orders as (select * from {{ source('raw', 'orders') }})\nselect * from orders\n" });
    const r = dbt(dir, ['run']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('view "stg_orders" cannot reference objects in database raw');
    expect(r.stdout).toContain('materialize this model as a table');
  });
});

describePgProjects('a dbt-postgres profile: schemas are schemas of the one database', () => {
  const profileFor = (dev: PgTestTarget, prod: PgTestTarget) => `shop:
  target: dev
  outputs:
    dev:
${pgOutputYaml(dev)}    prod:
${pgOutputYaml(prod)}`;
  /** A project on two fresh databases (dev and prod), the raw orders in schema raw of each. */
  const pgProject = (extra: Record<string, string> = {}) => {
    const dev = pgProjectDatabase('dev');
    const prod = pgProjectDatabase('prod');
    const { 'profiles.yml': _sqlite, ...files } = FILES;
    const dir = writeProject({ ...files, 'profiles.yml': profileFor(dev, prod), ...extra });
    const raw = "create schema raw; create table raw.orders (id integer, region text, amount integer); insert into raw.orders values (1, 'n', 10), (2, 'n', 5), (3, 's', 7);";
    for (const db of [dev, prod]) withReader(() => pgReader(db), (r) => r.exec(raw));
    const rows = (db: PgTestTarget, sql: string) => withReader(() => pgReader(db), (r) => r.all(sql));
    const tables = (db: PgTestTarget, schema: string) => rows(db, `select table_name as name from information_schema.tables where table_schema = '${schema}' and table_name not like '\\_mini\\_dbt%' order by 1`).map((r) => r.name);
    return { dir, dev, prod, rows, tables };
  };

  it('build: sources read from their schema, models and seeds land in <target schema>_<custom>, refs render schema-qualified', () => {
    const p = pgProject();
    const r = dbt(p.dir, ['build']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(p.tables(p.dev, 'public')).toEqual(['stg_orders']);
    expect(p.tables(p.dev, 'public_marts')).toEqual(['region_totals']);
    expect(p.tables(p.dev, 'public_seeds')).toEqual(['regions']);
    expect(p.rows(p.dev, 'select * from public_marts.region_totals order by 1')).toEqual([
      { label: 'North', total: 15, target_name: 'dev', me: '"public_marts"."region_totals"' },
      { label: 'South', total: 7, target_name: 'dev', me: '"public_marts"."region_totals"' },
    ]);
    expect(r.stdout).toContain('sql table model public_marts.region_totals');
    expect(r.stdout).toContain('seed file public_seeds.regions');
    // The ledger lives in the target's schema; the same command again gives the same tables.
    expect(Number(p.rows(p.dev, 'select count(*) as n from public._mini_dbt_node_runs')[0]!.n)).toBeGreaterThan(0);
    expect(dbt(p.dir, ['build']).code).toBe(0);
    expect(p.rows(p.dev, 'select label, total from public_marts.region_totals order by 1')).toEqual([{ label: 'North', total: 15 }, { label: 'South', total: 7 }]);
  });

  it('--target chooses the output: the other database, its own ledger', () => {
    const p = pgProject();
    const prod = dbt(p.dir, ['build', '--target', 'prod']);
    expect(prod.code, prod.stdout + prod.stderr).toBe(0);
    expect(p.rows(p.prod, 'select target_name from public_marts.region_totals limit 1')).toEqual([{ target_name: 'prod' }]);
    expect(p.tables(p.dev, 'public')).toEqual([]);
    expect(Number(p.rows(p.prod, "select count(*) as n from public._mini_dbt_node_runs where model = 'region_totals'")[0]!.n)).toBe(1);
  });

  it('a project generate_schema_name macro decides the schema, and sees var()', async () => {
    const p = pgProject({
      'macros/generate_schema_name.sql': `{% macro generate_schema_name(custom_schema_name, node) -%}
{%- if custom_schema_name is none -%}{{ target.schema }}{%- else -%}{{ var('schema_prefix', 'x') }}_{{ custom_schema_name | trim }}{%- endif -%}
{%- endmacro %}`,
    });
    await succeedingRun(p.dir, { command: 'build', vars: { schema_prefix: 'ci' } });
    expect(p.tables(p.dev, 'ci_marts')).toEqual(['region_totals']);
    expect(p.tables(p.dev, 'ci_seeds')).toEqual(['regions']);
  });

  it('incremental models in a custom schema: delete+insert, merge (its unique index) and on_schema_change work in that schema', async () => {
    const p = pgProject({
      'models/marts/orders_di.sql': "{{ config(materialized='incremental', unique_key='id') }}\nselect id, amount from {{ ref('stg_orders') }}\n{% if is_incremental() %}where id >= (select max(id) from {{ this }}){% endif %}\n",
      'models/marts/orders_merge.sql': "{{ config(materialized='incremental', incremental_strategy='merge', unique_key='id', on_schema_change='append_new_columns') }}\nselect id, amount{% if var('extra', false) %}, region{% endif %} from {{ ref('stg_orders') }}\n",
    });
    await succeedingRun(p.dir, { command: 'build' });
    withReader(() => pgReader(p.dev), (r) => r.exec("update raw.orders set amount = 11 where id = 3; insert into raw.orders values (4, 's', 1);"));
    await succeedingRun(p.dir, { vars: { extra: true } });
    expect(p.rows(p.dev, 'select id, amount from public_marts.orders_di order by id')).toEqual([{ id: 1, amount: 10 }, { id: 2, amount: 5 }, { id: 3, amount: 11 }, { id: 4, amount: 1 }]);
    expect(p.rows(p.dev, 'select id, amount, region from public_marts.orders_merge order by id')).toEqual([
      { id: 1, amount: 10, region: 'n' }, { id: 2, amount: 5, region: 'n' }, { id: 3, amount: 11, region: 's' }, { id: 4, amount: 1, region: 's' },
    ]);
    expect(p.rows(p.dev, "select indexname from pg_indexes where schemaname = 'public_marts' and tablename = 'orders_merge'").length).toBeGreaterThan(0);
  });

  it('adapter.get_relation and get_columns_in_relation look in the relation\'s schema', async () => {
    const p = pgProject({
      'models/marts/introspect.sql': `{%- set rel = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
{%- set cols = adapter.get_columns_in_relation(ref('region_totals')) -%}
select '{{ this.schema }}' as schema_name, {{ 'true' if rel else 'false' }} as existed, {{ cols | length }} as upstream_columns
`,
    });
    await succeedingRun(p.dir, { command: 'build' });
    await succeedingRun(p.dir, { select: ['introspect'] });
    expect(p.rows(p.dev, 'select * from public_marts.introspect')).toEqual([{ schema_name: 'public_marts', existed: true, upstream_columns: 4 }]);
  });

  it('a view may read another schema (unlike a SQLite view, held inside its file)', async () => {
    const p = pgProject({ 'models/stg_orders.sql': "with orders as (select * from {{ source('raw', 'orders') }})\nselect * from orders\n" });
    await succeedingRun(p.dir, { command: 'build' });
    expect(p.rows(p.dev, "select table_type from information_schema.tables where table_schema = 'public' and table_name = 'stg_orders'")).toEqual([{ table_type: 'VIEW' }]);
    expect(p.rows(p.dev, 'select count(*) as n from public.stg_orders')).toEqual([{ n: 3 }]);
  });
});

describe('bad profiles and targets get one clear message naming what exists (exit 2)', () => {
  it('an unknown --target lists the targets; an unknown --profile lists the profiles, with the closest', () => {
    const dir = project();
    const target = dbt(dir, ['run', '--target', 'prd']);
    expect(target.code).toBe(2);
    expect(target.stderr).toContain("target 'prd' not found in profile 'shop'; its targets: dev, prod. Did you mean 'prod'?");
    const profile = dbt(dir, ['run', '--profile', 'shopp']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain("profile 'shopp' not found; profiles there: shop. Did you mean 'shop'?");
    expect(target.stderr + profile.stderr).not.toMatch(/\n\s+at /);
  });

  it('a schemas_and_paths file that cannot be opened is named', () => {
    const dir = project({ 'profiles.yml': PROFILE.replace('raw: data/raw.db\n      schema_directory: data/dev', 'raw: data/not-a-file\n      schema_directory: data/dev') });
    mkdirSync(join(dir, 'data/not-a-file'), { recursive: true });
    const r = dbt(dir, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot open schema 'raw' (${join(dir, 'data/not-a-file')}, from schemas_and_paths)`);
  });

  it('a schema config that would leave schema_directory (../x) is refused before anything runs, and no file is written outside', () => {
    const dir = project({ 'dbt_project.yml': FILES['dbt_project.yml']!.replace('+schema: marts', '+schema: ../../escaped') });
    const r = dbt(dir, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("schema 'main_../../escaped' cannot name a file in schema_directory");
    expect(existsSync(join(dir, 'escaped.db'))).toBe(false);
    expect(existsSync(join(dir, 'data/escaped.db'))).toBe(false);
  });

  it('a schema with no file and no schema_directory says how to give it one; an output of an engine mini-dbt lacks names the ones it has', () => {
    const dir = project({ 'profiles.yml': PROFILE.replace('      schema_directory: data/dev\n', '') });
    const r = dbt(dir, ['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("schema 'main_marts' has no database file: target 'dev' names none for it in schemas_and_paths and sets no schema_directory");
    const pg = project({ 'profiles.yml': PROFILE.replace('type: sqlite\n      threads: 1', 'type: snowflake\n      threads: 1') });
    const p = dbt(pg, ['ls']);
    expect(p.code).toBe(2);
    expect(p.stderr).toContain("target 'dev' of profile 'shop' has type 'snowflake'; mini-dbt runs on: sqlite, postgres");
  });
});

describe('without a profiles.yml: one file, every relation in main, relations still schema-qualified', () => {
  it('the import-CTE style works on the project database, and +schema is not applied', () => {
    const dir = writeProject({
      'dbt_project.yml': 'name: plain\nprofile: plain\nmodels:\n  plain:\n    +schema: marts\n',
      'seeds/orders.csv': 'id,amount\n1,10\n2,20\n',
      'models/order_totals.sql': "{{ config(materialized='table') }}\nwith orders as (select * from {{ ref('orders') }})\nselect count(*) as n, sum(amount) as total, '{{ this }}' as me from orders\n",
    });
    const r = dbt(dir, ['build']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(rowsOf(join(dir, 'warehouse.db'), 'select * from order_totals')).toEqual([{ n: 2, total: 30, me: '"main"."order_totals"' }]);
  });
});
