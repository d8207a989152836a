import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * An installed package's project file as dbt reads it (dbt_project_evaluator's integration project):
 * its configs' Jinja rendered (`+materialized: "{{ 'table' if target.type in [...] else 'view' }}"`),
 * and a package seed the root project disables, to replace it with its own of the same name, is no clash.
 */
describe("an installed package's project file", () => {
  const pkg = (projectExtra: string) => ({
    'pkg/dbt_project.yml': `name: 'pkg'\nversion: '1.0'\nconfig-version: 2\nmodels:\n  pkg:\n    +materialized: "{{ 'table' if target.type in ['sqlite', 'postgres'] else 'view' }}"\n${projectExtra}`,
    'pkg/models/pkg_model.sql': 'select 1 as id',
    'pkg/seeds/exceptions.csv': 'name,reason\npkg_default,from the package\n',
    'packages.yml': 'packages:\n  - local: pkg\n',
  });
  const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, { config: { materialized?: string } }> };

  it('renders the Jinja in its configs, and lets the root replace a seed it disables', () => {
    const dir = writeProject({
      'dbt_project.yml': "name: root\nversion: '1.0'\nseeds:\n  pkg:\n    exceptions:\n      +enabled: false\n",
      'seeds/exceptions.csv': 'name,reason\nmine,root\n',
      'models/reader.sql': "select * from {{ ref('exceptions') }}",
      ...pkg(''),
    });
    expect(runCli(['deps', '--project-dir', dir]).code).toBe(0);
    const build = runCli(['build', '--project-dir', dir]);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(manifestOf(dir).nodes['model.pkg.pkg_model']?.config.materialized).toBe('table');
    expect(build.stdout).toContain('OK created sql table model main.pkg_model');
    expect(runCli(['show', '--inline', "select reason from {{ ref('exceptions') }}", '--project-dir', dir]).stdout).toMatch(/\| root +\|/);
  });

  it('refuses two enabled seeds of one name, naming both files', () => {
    const dir = writeProject({ 'dbt_project.yml': "name: root\nversion: '1.0'\n", 'seeds/exceptions.csv': 'name\nmine\n', ...pkg('') });
    expect(runCli(['deps', '--project-dir', dir]).code).toBe(0);
    const out = runCli(['parse', '--project-dir', dir]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("the name 'exceptions' is used twice: seeds/exceptions.csv and dbt_packages/pkg/seeds/exceptions.csv");
  });
});
