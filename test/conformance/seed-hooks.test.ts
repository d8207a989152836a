import { expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';
import { describeEachEngine } from '../support/engine-under-test.js';

/**
 * A seed's pre-hooks and post-hooks, as dbt's seed materialization runs
 * them (dbt-tests-adapter simple_seed: seeds with hooks): around the load,
 * `transaction: false` ones outside the load's transaction, the others
 * inside it, rendered with `this` the seed's table.
 */
const PROJECT = `name: seed_hooks
version: '1.0'
profile: default
seeds:
  seed_hooks:
    +pre-hook:
      - sql: "create table if not exists audit (what text, seed text, n integer)"
        transaction: false
      - "insert into audit select 'pre', '{{ this.identifier }}', null"
    +post-hook:
      - "insert into audit select 'post', '{{ this }}', count(*) from {{ this }}"
`;

describeEachEngine('seed hooks (pre-hook and post-hook around the load)', (engine) => {
  const schema = engine === 'postgres' ? 'public' : 'main';
  it('run in order with `this` the seed table: the post-hook sees the loaded rows; a second seed runs them again', () => {
    const p = conformanceProject({ 'dbt_project.yml': PROJECT, 'seeds/people.csv': 'id,name\n1,a\n2,b\n' }, 'seed_hooks', { engine });
    const seed = p.dbt(['seed']);
    expect(seed.code, seed.stdout + seed.stderr).toBe(0);
    expect(p.rows('audit', 'what desc')).toEqual([
      { what: 'pre', seed: 'people', n: null },
      { what: 'post', seed: `"${schema}"."people"`, n: 2 },
    ]);
    expect(p.dbt(['seed']).code).toBe(0);
    expect(p.count('audit')).toBe(4);
  });

  it('a failing in-transaction post-hook fails the seed (exit 1) and leaves the previous table as it was', () => {
    const p = conformanceProject({ 'dbt_project.yml': PROJECT, 'seeds/people.csv': 'id,name\n1,a\n2,b\n' }, 'seed_hooks', { engine });
    expect(p.dbt(['seed']).code).toBe(0);
    p.write('seeds/people.csv', 'id,name\n1,a\n2,b\n3,c\n');
    p.write('dbt_project.yml', PROJECT.replace("count(*) from {{ this }}\"", "count(*) from {{ this }}\"\n      - \"insert into no_such_table values (1)\""));
    const failed = p.dbt(['seed']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain(engine === 'postgres' ? 'relation "no_such_table" does not exist' : 'no such table: no_such_table');
    expect(p.count('people')).toBe(2);
  });
});

describeEachEngine('seed --show (dbt prints a sample of each loaded seed)', (engine) => {
  it("prints the seed's first rows under dbt's heading, after the load", () => {
    const p = conformanceProject({ 'seeds/people.csv': 'id,name\n1,Ann\n2,Bo\n' }, 'seed_show', { engine });
    const r = p.dbt(['seed', '--show']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`Random sample of table: ${engine === 'postgres' ? 'public' : 'main'}.people`);
    expect(r.stdout).toMatch(/\| id \| name\s*\|/);
    expect(r.stdout).toMatch(/\|\s+2 \| Bo\s*\|/);
    expect(p.dbt(['seed']).stdout).not.toContain('Random sample');
  });
});
