import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

/**
 * Conformance with dbt (issue 15): `init`, as dbt-core's init task
 * (tests/functional/init/): a project folder with dbt_project.yml naming its
 * profile, dbt's two starter models with their tests, seeds/, macros/, tests/,
 * and a profile (here dbt-sqlite's, in the project folder), then `build` in it.
 * In scripts it runs by flags: the name as the argument (a default when stdin
 * is not a terminal), --skip-profile-setup; an existing folder is refused (exit 2).
 */

const rowsOf = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
};

/** An empty folder to init in, with a HOME of its own (no ~/.dbt/profiles.yml). */
function workspace(): { dir: string; cli: (args: readonly string[], cwd?: string) => ReturnType<typeof runCli> } {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-init-'));
  return { dir, cli: (args, cwd = dir) => runCli(args, { cwd, env: { HOME: dir, DBT_PROFILES_DIR: '' } }) };
}

describe('init (dbt-core tests/functional/init)', () => {
  it('scaffolds the starter project with a dbt-sqlite profile; build in it builds both models and passes their tests', () => {
    const { dir, cli } = workspace();
    const r = cli(['init', 'shop']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Your new mini-dbt project "shop" was created!');
    const project = join(dir, 'shop');
    expect(readdirSync(project).sort()).toEqual(['.gitignore', 'dbt_project.yml', 'macros', 'models', 'profiles.yml', 'seeds', 'tests']);
    expect(readdirSync(join(project, 'models/example')).sort()).toEqual(['my_first_dbt_model.sql', 'my_second_dbt_model.sql', 'schema.yml']);
    const projectFile = readFileSync(join(project, 'dbt_project.yml'), 'utf8');
    expect(projectFile).toMatch(/^name: shop$/m);
    expect(projectFile).toMatch(/^profile: shop$/m);
    const profile = readFileSync(join(project, 'profiles.yml'), 'utf8');
    for (const text of ['shop:', 'target: dev', 'type: sqlite', 'schema: main', 'main: shop.db', 'schema_directory: schemas']) expect(profile).toContain(text);

    const build = cli(['build'], project);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout).toContain('Done. PASS=6 WARN=0 ERROR=0 SKIP=0 TOTAL=6');
    // The profile's main file is the warehouse: the table and the view on it, with dbt's starter rows.
    expect(rowsOf(join(project, 'shop.db'), 'select id from my_first_dbt_model')).toEqual([{ id: 1 }]);
    expect(rowsOf(join(project, 'shop.db'), 'select id from my_second_dbt_model')).toEqual([{ id: 1 }]);
    expect(rowsOf(join(project, 'shop.db'), "select name, type from sqlite_master where name like 'my_%' order by name")).toEqual([
      { name: 'my_first_dbt_model', type: 'table' },
      { name: 'my_second_dbt_model', type: 'view' },
    ]);
    expect(existsSync(join(project, 'warehouse.db'))).toBe(false);
    const debug = cli(['debug'], project);
    expect(debug.code, debug.stdout).toBe(0);
    expect(debug.stdout).toContain('All checks passed!');
  });

  it('--skip-profile-setup writes no profiles.yml (warehouse.db is the target); without a name in a script: my_new_project', () => {
    const { dir, cli } = workspace();
    const r = cli(['init', '--skip-profile-setup']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const project = join(dir, 'my_new_project');
    expect(existsSync(join(project, 'dbt_project.yml'))).toBe(true);
    expect(existsSync(join(project, 'profiles.yml'))).toBe(false);
    expect(cli(['build'], project).code).toBe(0);
    expect(rowsOf(join(project, 'warehouse.db'), 'select id from my_second_dbt_model')).toEqual([{ id: 1 }]);
  });

  it('--project-dir is where the folder goes; an existing folder or a bad name is refused (exit 2) and nothing is written', () => {
    const { dir, cli } = workspace();
    const parent = join(dir, 'work');
    expect(cli(['init', 'shop', '--project-dir', parent]).code).toBe(0);
    const before = readFileSync(join(parent, 'shop/dbt_project.yml'), 'utf8');
    const again = cli(['init', 'shop', '--project-dir', parent]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`A project called shop already exists here (${join(parent, 'shop')}); nothing was written`);
    expect(readFileSync(join(parent, 'shop/dbt_project.yml'), 'utf8')).toBe(before);
    const bad = cli(['init', '1shop']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("project name '1shop' is invalid: use letters, digits and underscores, not starting with a digit");
    expect(existsSync(join(dir, '1shop'))).toBe(false);
    expect(bad.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
  });
});
