import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli, type CliResult } from '../support/run-cli.js';

/**
 * Conformance with dbt (issue 15): `debug`, as dbt-core's debug task reports it
 * (tests/functional/debug/): the versions, the project file found and valid,
 * the profiles.yml used, the target's settings, a connection test, then
 * `All checks passed!` or `N check(s) failed:` with the reasons and exit 1.
 * Debug writes nothing: the warehouse is opened read-only, and never created.
 */

const PROJECT = { 'dbt_project.yml': 'name: shop\nprofile: shop\n', 'models/one.sql': 'select 1 as id\n' };
const PROFILE = `shop:
  target: dev
  outputs:
    dev:
      type: sqlite
      threads: 1
      database: database
      schema: main
      schemas_and_paths:
        main: data/dev.db
      schema_directory: data/dev
    prod:
      type: sqlite
      schema: main
      schemas_and_paths:
        main: data/prod.db
`;

/** debug from inside the project folder, with a HOME of its own (no ~/.dbt/profiles.yml). */
function debug(dir: string, args: readonly string[] = []): CliResult {
  return runCli(['debug', ...args], { cwd: dir, env: { HOME: dir, DBT_PROFILES_DIR: '' } });
}

describe('debug (dbt-core tests/functional/debug)', () => {
  it('without a profiles.yml: the project file, the project\'s database file as the target, a connection test; nothing is created', () => {
    const dir = writeProject(PROJECT);
    const r = debug(dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/mini-dbt version: \d+\.\d+\.\d+/);
    expect(r.stdout).toMatch(/node version: v\d+/);
    expect(r.stdout).toMatch(/SQLite version: 3\.\d+/);
    expect(r.stdout).toContain("no profiles.yml: the project's database file is the target");
    expect(r.stdout).toContain(`Using dbt_project.yml file at ${join(dir, 'dbt_project.yml')}`);
    expect(r.stdout).toContain('dbt_project.yml file [OK found and valid]');
    expect(r.stdout).toContain(`database: ${join(dir, 'warehouse.db')}`);
    expect(r.stdout).toContain('Connection test: [OK connection ok]');
    expect(r.stdout).toContain('All checks passed!');
    expect(existsSync(join(dir, 'warehouse.db'))).toBe(false);
  });

  it('with a profile: the file used, the profile and target (name, type, schema, main file, schemas_and_paths), --target choosing another', () => {
    const dir = writeProject({ ...PROJECT, 'profiles.yml': PROFILE });
    expect(runCli(['run'], { cwd: dir, env: { HOME: dir } }).code).toBe(0);
    const r = debug(dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`Using profiles.yml file at ${join(dir, 'profiles.yml')}`);
    expect(r.stdout).toContain('profiles.yml file [OK found and valid]');
    for (const text of ['profile: shop', 'target: dev', 'type: sqlite', 'schema: main', `database: ${join(dir, 'data/dev.db')}`, `schemas_and_paths: main: ${join(dir, 'data/dev.db')}`, `schema_directory: ${join(dir, 'data/dev')}`]) {
      expect(r.stdout).toContain(text);
    }
    expect(r.stdout).toContain('Connection test: [OK connection ok]');
    expect(r.stdout).toContain('All checks passed!');
    const prod = debug(dir, ['--target', 'prod']);
    expect(prod.code).toBe(0);
    expect(prod.stdout).toContain('target: prod');
    expect(prod.stdout).toContain(`database: ${join(dir, 'data/prod.db')}`);
    expect(existsSync(join(dir, 'data/prod.db'))).toBe(false);
  });

  it('no project file: ERROR not found, 1 check failed, exit 1', () => {
    const dir = writeProject({ 'models/one.sql': 'select 1 as id\n' });
    const r = debug(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('project.yml file [ERROR not found]');
    expect(r.stdout).toContain('1 check failed:');
    expect(r.stdout).toContain(`Project loading failed: no project.yml (or dbt_project.yml) found in ${dir}`);
    expect(r.stdout).not.toContain('All checks passed!');
  });

  it('a target the profile does not have: profiles.yml file [ERROR invalid], the reason, exit 1', () => {
    const dir = writeProject({ ...PROJECT, 'profiles.yml': PROFILE });
    const r = debug(dir, ['--target', 'prd']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('profiles.yml file [ERROR invalid]');
    expect(r.stdout).toContain("Profile loading failed: ");
    expect(r.stdout).toContain("target 'prd' not found in profile 'shop'; its targets: dev, prod. Did you mean 'prod'?");
    expect(r.stdout).not.toContain('Connection test');
  });

  it('a warehouse file that is not a SQLite database: Connection test: [ERROR], exit 1, the file untouched', () => {
    const dir = writeProject(PROJECT);
    const text = 'not a database\n'.repeat(100);
    writeFileSync(join(dir, 'warehouse.db'), text);
    const r = debug(dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Connection test: [ERROR]');
    expect(r.stdout).toContain('1 check failed:');
    expect(r.stdout).toContain('Connection test failed: ');
    expect(readFileSync(join(dir, 'warehouse.db'), 'utf8')).toBe(text);
    rmSync(dir, { recursive: true, force: true });
  });
});
