import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * dbt's --state with the state: and result: selector methods (modelled on
 * dbt-core's tests/functional/defer_state/test_modified_state.py and
 * test_run_results_state.py, our own fixtures): the project against the
 * manifest.json and run_results.json of an earlier run's target folder.
 */
describe('state: and result: selectors against --state', () => {
  const project = () => writeProject({
    'dbt_project.yml': "name: shop\nversion: '1.0'\n",
    'seeds/orders.csv': 'id,amount\n1,10\n2,20\n',
    'models/stg.sql': "select * from {{ ref('orders') }}\n",
    'models/big.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('stg') }} where amount > 5\n",
    'models/schema.yml': 'version: 2\nmodels:\n  - name: big\n    columns:\n      - name: id\n        data_tests: [unique]\n',
  });
  /** Build, then keep target/ as the state to compare with. */
  const withState = () => {
    const dir = project();
    expect(runCli(['build', '--project-dir', dir]).code).toBe(0);
    cpSync(join(dir, 'target'), join(dir, 'prod'), { recursive: true });
    return dir;
  };
  const ls = (dir: string, ...args: string[]) => {
    const r = runCli(['ls', '--project-dir', dir, '--state', join(dir, 'prod'), '--output', 'name', ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout.split('\n').filter((l) => l !== '');
  };

  it('an unchanged project has nothing modified; run says so and exits 0', () => {
    const dir = withState();
    expect(ls(dir, '--select', 'state:modified')).toEqual([]);
    expect(ls(dir, '--select', 'state:unmodified', '--resource-type', 'model')).toEqual(['stg', 'big']);
    const run = runCli(['run', '--select', 'state:modified', '--state', join(dir, 'prod'), '--project-dir', dir]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Nothing to do');
  });

  it('a changed body, config or alias, and a new model, each under its own state: value', () => {
    const dir = withState();
    writeFileSync(join(dir, 'models/stg.sql'), "select * from {{ ref('orders') }} where id > 0\n");
    writeFileSync(join(dir, 'models/big.sql'), "{{ config(materialized='view') }}\nselect * from {{ ref('stg') }} where amount > 5\n");
    writeFileSync(join(dir, 'models/fresh.sql'), "select 1 as id\n");
    writeFileSync(join(dir, 'seeds/orders.csv'), 'id,amount\n1,10\n2,20\n3,30\n');
    expect(ls(dir, '--select', 'state:modified', '--resource-type', 'model', 'seed')).toEqual(['orders', 'fresh', 'stg', 'big']);
    expect(ls(dir, '--select', 'state:modified.body', '--resource-type', 'model', 'seed')).toEqual(['orders', 'stg', 'big']);
    expect(ls(dir, '--select', 'state:modified.configs', '--resource-type', 'model')).toEqual(['big']);
    expect(ls(dir, '--select', 'state:new')).toEqual(['fresh']);
    expect(ls(dir, '--select', 'state:old', '--resource-type', 'model')).toEqual(['stg', 'big']);
    // A new alias moves the relation: modified.relation (and configs, where the alias is set).
    writeFileSync(join(dir, 'models/stg.sql'), "{{ config(alias='stg_v2') }}\nselect * from {{ ref('orders') }}\n");
    expect(ls(dir, '--select', 'state:modified.relation')).toEqual(['stg']);
  });

  it('state:modified.macros: the nodes that call a macro whose text changed, directly or through another macro', () => {
    const dir = project();
    mkdirSync(join(dir, 'macros'));
    writeFileSync(join(dir, 'macros/m.sql'), '{% macro threshold() %}5{% endmacro %}\n{% macro cutoff() %}{{ threshold() }}{% endmacro %}\n');
    writeFileSync(join(dir, 'models/big.sql'), "select * from {{ ref('stg') }} where amount > {{ cutoff() }}\n");
    expect(runCli(['build', '--project-dir', dir]).code).toBe(0);
    cpSync(join(dir, 'target'), join(dir, 'prod'), { recursive: true });
    expect(ls(dir, '--select', 'state:modified.macros')).toEqual([]);
    writeFileSync(join(dir, 'macros/m.sql'), '{% macro threshold() %}6{% endmacro %}\n{% macro cutoff() %}{{ threshold() }}{% endmacro %}\n');
    expect(ls(dir, '--select', 'state:modified.macros', '--resource-type', 'model')).toEqual(['big']);
    expect(ls(dir, '--select', 'state:modified', '--resource-type', 'model')).toEqual(['big']);
    expect(ls(dir, '--select', 'state:modified.body', '--resource-type', 'model')).toEqual([]);
  });

  it('state:modified+ builds what changed and what reads it, and the tests on them', () => {
    const dir = withState();
    writeFileSync(join(dir, 'models/stg.sql'), "select * from {{ ref('orders') }} where id > 0\n");
    const build = runCli(['build', '--select', 'state:modified+', '--state', join(dir, 'prod'), '--project-dir', dir]);
    expect(build.code, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/OK created sql view model main\.stg/);
    expect(build.stdout).toMatch(/OK created sql table model main\.big/);
    expect(build.stdout).toMatch(/PASS unique_big_id/);
    expect(build.stdout).not.toMatch(/seed file main\.orders/);
  });

  it('result:<status> picks nodes by their status in the state run_results.json', () => {
    const dir = project();
    writeFileSync(join(dir, 'models/broken.sql'), 'select no_such_column from {{ ref(\'stg\') }}\n');
    expect(runCli(['build', '--project-dir', dir]).code).toBe(1);
    cpSync(join(dir, 'target'), join(dir, 'prod'), { recursive: true });
    expect(ls(dir, '--select', 'result:error')).toEqual(['broken']);
    expect(ls(dir, '--select', 'result:success', '--resource-type', 'model')).toEqual(['stg', 'big']);
  });

  it('without --state, or with a folder holding no manifest, a state: selector is a usage error', () => {
    const dir = project();
    const none = runCli(['ls', '--select', 'state:modified', '--project-dir', dir]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Got a state selector method');
    const empty = runCli(['ls', '--select', 'state:modified', '--state', join(dir, 'nowhere'), '--project-dir', dir]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no manifest.json there to compare with');
    const persisted = runCli(['ls', '--select', 'state:modified.persisted_descriptions', '--state', join(dir, 'nowhere'), '--project-dir', dir]);
    expect(persisted.code).toBe(2);
    expect(persisted.stderr).toContain('does not compare persisted descriptions');
  });
});
