import { openWarehouse } from '../../../src/engine/open-warehouse.js';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../../src/api/session.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { isReservedName, scratchTableName } from '../../../src/project/reserved-names.js';
import { stagedTableName, newRowsName } from '../../../src/materialize/staging-names.js';
import { rebuiltTableName } from '../../../src/analysis/exact-stale.js';
import { migrateLedger } from '../../../src/state/migrate-ledger.js';
import { writeProject } from '../../support/example-project.js';

/** Load a project; the error it is refused with, formatted as the CLI prints it (or undefined). */
function loadError(files: Record<string, string>): string | undefined {
  const dir = writeProject({ 'project.yml': 'name: shop\n', ...files });
  try {
    loadSession({ projectDir: dir });
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ProjectError);
    return (err as ProjectError).format();
  }
}

const RESERVED = "which is in mini-dbt's reserved namespace: names starting with '_mini_dbt_' or containing '__mini_dbt_' (in any letter case) belong to the run ledger and the staging tables";

describe('the reserved namespace', () => {
  it('covers the ledger prefix and the staging infix, ignoring ASCII case as SQLite does', () => {
    for (const name of ['_mini_dbt_runs', '_MINI_DBT_Runs', '_mini_dbt_future', 'orders__mini_dbt_tmp', 'x__MINI_DBT_new', '__mini_dbt_probe']) {
      expect(isReservedName(name), name).toBe(true);
    }
    for (const name of ['mini_dbt_runs', 'orders_mini_dbt_tmp', 'x_mini_dbt_y', 'orders', 'orders__tmp']) {
      expect(isReservedName(name), name).toBe(false);
    }
  });

  it('holds every table and index the ledger migration creates, and every scratch name derived from an alias', () => {
    const db = openWarehouse(':memory:');
    migrateLedger(db);
    const names = db.values("select name from sqlite_master where name not like 'sqlite_%'") as string[];
    expect(names.length).toBeGreaterThanOrEqual(4);
    for (const name of names) expect(isReservedName(name), name).toBe(true);
    db.close();
    for (const alias of ['orders', 'Orders', 'a b']) {
      for (const name of [stagedTableName(alias), newRowsName(alias), rebuiltTableName(alias), scratchTableName(alias, 'preview')]) {
        expect(isReservedName(name), name).toBe(true);
      }
    }
  });
});

describe('load-time relation checks', () => {
  it.each([
    ['a model named like a ledger table', { 'models/_mini_dbt_runs.sql': 'select 1 as a' }, `models/_mini_dbt_runs.sql: model '_mini_dbt_runs' names the relation '_mini_dbt_runs', ${RESERVED}`],
    ['in another letter case', { 'models/_Mini_Dbt_Partitions.sql': 'select 1 as a' }, `model '_Mini_Dbt_Partitions' names the relation '_Mini_Dbt_Partitions', ${RESERVED}`],
    ['a model named like a staging table', { 'models/orders__mini_dbt_tmp.sql': 'select 1 as a' }, `model 'orders__mini_dbt_tmp' names the relation 'orders__mini_dbt_tmp', ${RESERVED}`],
    ['a model alias', { 'models/m.sql': "{{ config(alias='_mini_dbt_node_runs') }}\nselect 1 as a" }, `models/m.sql:1: model 'm' names the relation '_mini_dbt_node_runs', ${RESERVED}`],
    ['a seed', { 'seeds/_mini_dbt_migrations.csv': 'a\n1\n' }, `seeds/_mini_dbt_migrations.csv: seed '_mini_dbt_migrations' names the relation '_mini_dbt_migrations', ${RESERVED}`],
    ['a seed alias', { 'seeds/s.csv': 'a\n1\n', 'seeds/s.yml': 'seeds:\n  - name: s\n    config:\n      alias: s__mini_dbt_new\n' }, `seeds/s.yml:2: seed 's' names the relation 's__mini_dbt_new', ${RESERVED}`],
    ['a source identifier', { 'models/src.yml': 'sources:\n  - name: raw\n    tables:\n      - name: runs\n        identifier: _mini_dbt_runs\n' }, `source 'raw.runs' names the relation '_mini_dbt_runs', ${RESERVED}`],
  ])('refuses %s, naming the file and the namespace', (_what, files, message) => {
    expect(loadError(files)).toContain(message);
  });

  it('refuses a model aliased onto a seed, naming both files', () => {
    expect(loadError({ 'seeds/orders.csv': 'a\n1\n', 'models/m.sql': "{{ config(alias='orders') }}\nselect 1 as a" })).toContain(
      "models/m.sql:1: found two resources with the database representation \"main\".\"orders\": seed.shop.orders (seeds/orders.csv) and model.shop.m (models/m.sql); mini-dbt cannot create two resources with identical database representations",
    );
  });

  it('refuses names equal ignoring case (Orders.sql and orders.csv)', () => {
    expect(loadError({ 'seeds/orders.csv': 'a\n1\n', 'models/Orders.sql': 'select 1 as a' })).toContain(
      "models/Orders.sql: found two resources with the database representation \"main\".\"Orders\" ('orders' and 'Orders' are one name to SQLite, which ignores letter case): seed.shop.orders (seeds/orders.csv) and model.shop.Orders (models/Orders.sql)",
    );
  });

  it('refuses two models writing one relation through an alias', () => {
    expect(loadError({ 'models/a.sql': 'select 1 as a', 'models/marts/b.sql': "{{ config(alias='A') }}\nselect 2 as a" })).toContain(
      "found two resources with the database representation \"main\".\"A\" ('a' and 'A' are one name to SQLite, which ignores letter case): model.shop.a (models/a.sql) and model.shop.b (models/marts/b.sql)",
    );
  });

  it('the same alias in two schemas is two relations, as in dbt (its BaseSameAliasDifferentSchemas)', () => {
    // Schemas come with a profile (without one every relation is in main, and these would collide).
    const profile = {
      'project.yml': 'name: shop\nprofile: shop\n',
      'profiles.yml': 'shop:\n  target: dev\n  outputs:\n    dev:\n      type: sqlite\n      threads: 1\n      database: warehouse.db\n      schema: main\n      schemas_and_paths:\n        main: warehouse.db\n      schema_directory: schemas\n',
    };
    expect(loadError({
      ...profile,
      'models/model_a.sql': "{{ config(alias='duped_alias') }}\nselect 1 as id",
      'models/model_b.sql': "{{ config(alias='duped_alias', schema='schema_b') }}\nselect 2 as id",
      'models/model_c.sql': "{{ config(alias='duped_alias', schema='schema_c') }}\nselect 3 as id",
    })).toBeUndefined();
    expect(loadError({
      ...profile,
      'models/model_b.sql': "{{ config(alias='duped_alias', schema='schema_b') }}\nselect 2 as id",
      'models/model_c.sql': "{{ config(alias='duped_alias', schema='SCHEMA_B') }}\nselect 3 as id",
    })).toContain('found two resources with the database representation "main_SCHEMA_B"."duped_alias"');
    expect(loadError({
      'models/model_a.sql': "{{ config(alias='duped_alias') }}\nselect 1 as id",
      'models/model_b.sql': "{{ config(alias='duped_alias', schema='schema_b') }}\nselect 2 as id",
    })).toContain('found two resources with the database representation "main"."duped_alias"');
  });

  it('a seed and a model of the same name name both files (two models of one name stay E16)', () => {
    expect(loadError({ 'seeds/orders.csv': 'a\n1\n', 'models/orders.sql': 'select 1 as a' })).toContain(
      "seeds/orders.csv: the name 'orders' is used twice: models/orders.sql and seeds/orders.csv",
    );
  });

  it('ephemeral and disabled models write nothing, a source may read a seed, and near-miss names are fine', () => {
    expect(loadError({
      'seeds/orders.csv': 'a\n1\n',
      'models/eph.sql': "{{ config(materialized='ephemeral', alias='orders') }}\nselect 1 as a",
      'models/off.sql': "{{ config(enabled=false, alias='orders') }}\nselect 1 as a",
      'models/mini_dbt_runs.sql': 'select 1 as a',
      'models/src.yml': 'sources:\n  - name: raw\n    tables:\n      - name: orders\n',
    })).toBeUndefined();
  });
});
