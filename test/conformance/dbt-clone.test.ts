import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import { pgOutputYaml, pgProfilesYml } from '../support/pg-test-database.js';
import { runCli } from '../support/run-cli.js';

/**
 * dbt's clone (1.6+), modelled on dbt-adapters' dbt-tests-adapter
 * dbt_clone/test_dbt_clone.py (BaseCloneNotPossible, as dbt-postgres: every
 * clone a view; BaseCloneSameSourceAndTarget; test_clone_no_state) on our
 * own fixtures. Prod is another schema of the same database on PostgreSQL,
 * another file on SQLite, where a view cannot read another file: there the
 * clone is a copy (a table), and prod holds no views (a main file with views
 * cannot be attached under another name: E212, defer-state.test.ts).
 */

const FILES: Record<string, string> = {
  'seeds/seed.csv': 'id,name\n1,alice\n2,bob\n',
  'models/table_model.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('seed') }}\n",
  'models/ephemeral_model.sql': "{{ config(materialized='ephemeral') }}\nselect id from {{ ref('table_model') }}\n",
  'models/counted.sql': "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('ephemeral_model') }}\n",
};

function setup(engine: EngineName) {
  const p = conformanceProject(FILES, 'clone', { engine });
  const prodSchema = p.pg ? `${p.pg.schema}_prod` : 'main';
  if (p.pg) {
    writeFileSync(join(p.dir, 'profiles.yml'), pgProfilesYml(p.pg, { profile: 'default', target: 'pg', otherOutputs: `    prod:\n${pgOutputYaml({ ...p.pg, schema: prodSchema })}` }));
  }
  const prodArgs = p.pg ? ['--target', 'prod'] : ['--database', join(p.dir, 'prod.db')];
  const r = p.dbt(['build', ...prodArgs]);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const state = join(p.dir, 'state');
  cpSync(join(p.dir, 'target'), state, { recursive: true });
  return { p, state, prodArgs, prodSchema };
}

const messages = (r: { results: readonly { unique_id: string; message: string | null }[] }) => Object.fromEntries(r.results.map((x) => [x.unique_id, x.message]));

describeEachEngine('clone: a relation in the target for each selected model, seed and snapshot, reading the state\'s (test_dbt_clone.py)', (engine) => {
  const created = engine === 'postgres' ? 'CREATE VIEW' : 'CREATE TABLE';
  const kind = engine === 'postgres' ? 'view' : 'table';

  it('clones every relational node (not the ephemeral), then No-op while they exist, again with --full-refresh, and --resource-type model', () => {
    const { p, state } = setup(engine);
    const first = p.dbt(['clone', '--state', state]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(messages(first)).toEqual({ 'seed.clone.seed': created, 'model.clone.table_model': created, 'model.clone.counted': created });
    expect(first.stdout).toMatch(/1 of 3 START clone seed\.clone\.seed \.+ \[RUN\]/);
    expect(first.stdout).toMatch(new RegExp(`OK created clone model\\.clone\\.table_model \\.+ \\[${created} in`));
    for (const name of ['seed', 'table_model', 'counted']) expect(p.relationType(name)).toBe(kind);
    expect(p.rows('table_model', 'id')).toEqual([{ id: 1, name: 'alice' }, { id: 2, name: 'bob' }]);
    expect(p.rows('counted')).toEqual([{ n: 2 }]);
    expect(p.relationType('ephemeral_model')).toBeUndefined();
    // They exist now: nothing to do.
    const again = p.dbt(['clone', '--state', state]);
    expect(again.code).toBe(0);
    expect(Object.values(messages(again))).toEqual(['No-op', 'No-op', 'No-op']);
    expect(again.stdout).toMatch(/OK created clone seed\.clone\.seed \.+ \[No-op in/);
    const full = p.dbt(['clone', '--state', state, '--full-refresh']);
    expect(full.code).toBe(0);
    expect(Object.values(messages(full))).toEqual([created, created, created]);
    const models = p.dbt(['clone', '--state', state, '--resource-type', 'model']);
    expect(models.code).toBe(0);
    expect(messages(models)).toEqual({ 'model.clone.table_model': 'No-op', 'model.clone.counted': 'No-op' });
  });

  it('a relation the target built itself is left alone (No-op) and replaced by the state\'s with --full-refresh', () => {
    const { p, state } = setup(engine);
    p.write('seeds/seed.csv', 'id,name\n1,alice\n2,bob\n3,carol\n');
    expect(p.dbt(['build', '-s', 'seed', 'table_model']).code).toBe(0);
    const keep = p.dbt(['clone', '--state', state, '-s', 'table_model']);
    expect(messages(keep)).toEqual({ 'model.clone.table_model': 'No-op' });
    expect(p.count('table_model')).toBe(3);
    const replace = p.dbt(['clone', '--state', state, '-s', 'table_model', '--full-refresh']);
    expect(replace.code, replace.stdout + replace.stderr).toBe(0);
    expect(messages(replace)).toEqual({ 'model.clone.table_model': created });
    expect(p.relationType('table_model')).toBe(kind);
    expect(p.count('table_model')).toBe(2);
  });

  it('a node whose state relation is its own relation is never dropped, even with --full-refresh (BaseCloneSameSourceAndTarget)', () => {
    const { p, state, prodArgs } = setup(engine);
    const r = p.dbt(['clone', ...prodArgs, '--state', state, '--full-refresh', '--log-level', 'debug']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(Object.values(messages(r))).toEqual(['No-op', 'No-op', 'No-op']);
    expect(r.stdout).toContain('skipping clone for relation');
  });

  it('--state naming the target folder itself warns in dbt\'s words (BaseCloneSameTargetAndState)', () => {
    const { p } = setup(engine);
    // From the project folder, as dbt is run: --state target is the folder clone writes its artifacts to.
    const r = runCli(['clone', '--state', 'target'], { cwd: p.dir });
    expect(r.stdout + r.stderr).toContain("The state and target directories are the same: 'target'");
  });

  it('without --state (or --defer-state) clone is refused in dbt\'s words', () => {
    const { p } = setup(engine);
    const r = p.dbt(['clone']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--state or --defer-state are required for deferral, but neither was provided');
    expect(p.relationType('table_model')).toBeUndefined();
  });
});
