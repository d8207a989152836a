import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceProject, type ConformanceProject } from '../support/conformance-project.js';
import { describeEachEngine, type EngineName } from '../support/engine-under-test.js';
import { pgOutputYaml, pgProfilesYml } from '../support/pg-test-database.js';
import { runCli } from '../support/run-cli.js';
import { succeedingRun } from '../support/succeeding-run.js';

/**
 * dbt's --defer and --favor-state (Slim CI), modelled on dbt-core's
 * tests/functional/defer_state/test_defer_state.py (BaseDeferState: a prod
 * target built and its target/ kept as the state; the dev target then runs a
 * selection whose unbuilt, unselected parents are read from prod;
 * TestRunDeferStateFavorState; tests and ephemerals under defer) on our own
 * fixtures. Prod is another schema of the same database on PostgreSQL, and
 * another SQLite file on SQLite (attached to read as `state_main`).
 */

const FILES: Record<string, string> = {
  'seeds/people.csv': 'id,name\n1,alice\n2,bob\n',
  // A table upstream: a SQLite file holding views that name `main` cannot be attached under another name (see the E212 case).
  'models/upstream.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('people') }}\n",
  'models/shouted.sql': "{{ config(materialized='ephemeral') }}\nselect id, upper(name) as name from {{ ref('upstream') }}\n",
  'models/loud.sql': "{{ config(materialized='table') }}\nselect * from {{ ref('shouted') }}\n",
  'models/reader.sql': "{{ config(materialized='table') }}\nselect count(*) as n from {{ ref('upstream') }}\n",
  'models/schema.yml': 'version: 2\nmodels:\n  - name: upstream\n    columns:\n      - name: id\n        data_tests: [unique, not_null]\n',
};

/** The project on `engine` with a `prod` environment beside its dev target: run `prod(...)` to build there. */
function setup(engine: EngineName, files: Record<string, string> = {}) {
  const p = conformanceProject({ ...FILES, ...files }, 'defer', { engine });
  const prodSchema = p.pg ? `${p.pg.schema}_prod` : 'main';
  if (p.pg) {
    writeFileSync(join(p.dir, 'profiles.yml'), pgProfilesYml(p.pg, { profile: 'default', target: 'pg', otherOutputs: `    prod:\n${pgOutputYaml({ ...p.pg, schema: prodSchema })}` }));
  }
  const prodArgs = p.pg ? ['--target', 'prod'] : ['--database', join(p.dir, 'prod.db')];
  /**
   * Build in prod, then keep its target/ as the state (as a CI job downloads production's artifacts): a set-up
   * command no case checks the output of, so in process (the API `build` calls, writing target/ as the CLI does).
   */
  const buildProd = async (...exclude: string[]) => {
    await succeedingRun(p.dir, { command: 'build', writeArtifacts: true, exclude, ...(p.pg ? { target: 'prod' } : { database: join(p.dir, 'prod.db') }) });
    cpSync(join(p.dir, 'target'), join(p.dir, 'state'), { recursive: true });
  };
  const state = join(p.dir, 'state');
  /** How the dev target names prod's relation `alias` in compiled SQL. */
  const prodRelation = (alias: string) => (p.pg ? `"${prodSchema}"."${alias}"` : `"state_main"."${alias}"`);
  const compiled = (name: string) => readFileSync(join(p.dir, 'target/run/defer/models', `${name}.sql`), 'utf8');
  return { p, buildProd, state, prodRelation, compiled, prodArgs };
}

const ok = (r: { code: number; stdout: string; stderr: string }) => expect(r.code, r.stdout + r.stderr).toBe(0);

describeEachEngine('--defer: an unselected node that the dev target has not built is read from the state (test_defer_state.py)', (engine) => {
  // Prod built once, on first use, for the cases that only add deferred nodes to dev (never upstream or people):
  // each still finds dev without upstream, as after a fresh setup.
  let built: ReturnType<typeof setup> | undefined;
  const prodBuilt = async () => {
    if (built === undefined) {
      built = setup(engine);
      await built.buildProd();
    }
    return built;
  };

  it('run -s reader fails without --defer (no upstream in dev) and with --defer --state reads prod\'s upstream; upstream stays unbuilt in dev', async () => {
    const { p, state, prodRelation, compiled } = await prodBuilt();
    const plain = p.dbt(['run', '-s', 'reader']);
    expect(plain.code).toBe(1);
    const deferred = p.dbt(['run', '-s', 'reader', '--defer', '--state', state]);
    ok(deferred);
    expect(deferred.statuses).toEqual({ 'model.defer.reader': 'success' });
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    expect(p.relationType('upstream')).toBeUndefined();
    expect(compiled('reader')).toContain(prodRelation('upstream'));
  });

  it('--defer-state is the state for deferral alone; DBT_DEFER and DBT_DEFER_STATE set them from the environment', async () => {
    const { p, state, prodRelation } = await prodBuilt();
    ok(p.dbt(['run', '-s', 'reader', '--defer', '--defer-state', state]));
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    const env = runCli(['compile', '-s', 'reader', '--project-dir', p.dir], { env: { DBT_DEFER: 'true', DBT_DEFER_STATE: state } });
    ok(env);
    expect(env.stdout).toContain(prodRelation('upstream'));
    // DBT_DEFER=false (and --no-defer) leave refs in the dev target.
    const off = runCli(['compile', '-s', 'reader', '--project-dir', p.dir], { env: { DBT_DEFER: 'false', DBT_DEFER_STATE: state } });
    ok(off);
    expect(off.stdout).not.toContain(prodRelation('upstream'));
    const no = runCli(['compile', '-s', 'reader', '--no-defer', '--project-dir', p.dir], { env: { DBT_DEFER: '1', DBT_DEFER_STATE: state } });
    expect(no.stdout).not.toContain(prodRelation('upstream'));
  });

  it('a node the dev target has built is read there; --favor-state reads the state\'s unless it is selected (TestRunDeferStateFavorState)', async () => {
    const { p, buildProd, state } = setup(engine);
    await buildProd();
    // Dev's upstream has a third person: which of the two a read sees is its row count.
    p.write('seeds/people.csv', 'id,name\n1,alice\n2,bob\n3,carol\n');
    await succeedingRun(p.dir, { command: 'build', select: ['people', 'upstream'] });
    ok(p.dbt(['run', '-s', 'reader', '--defer', '--state', state]));
    expect(p.rows('reader')).toEqual([{ n: 3 }]);
    ok(p.dbt(['run', '-s', 'reader', '--defer', '--favor-state', '--state', state]));
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    ok(runCli(['run', '-s', 'reader', '--defer', '--state', state, '--project-dir', p.dir], { env: { DBT_FAVOR_STATE: 'true' } }));
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    // Selected, upstream is dev's own even with --favor-state (and people too: unselected, upstream would read prod's).
    ok(p.dbt(['run', '-s', 'upstream', 'reader', '--defer', '--favor-state', '--state', state]));
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    ok(p.dbt(['build', '-s', 'people', 'upstream', 'reader', '--defer', '--favor-state', '--state', state]));
    expect(p.rows('reader')).toEqual([{ n: 3 }]);
    // --favor-state without --defer changes nothing, as in dbt.
    p.exec('drop table upstream');
    expect(p.dbt(['run', '-s', 'reader', '--favor-state', '--state', state]).code).toBe(1);
  });

  it('an ephemeral is inlined, never deferred, and its own refs defer: loud is built from prod\'s upstream through shouted', async () => {
    const { p, state, prodRelation, compiled } = await prodBuilt();
    // Two independent nodes with --threads 2: on PostgreSQL side by side, each worker deferring as the main thread would.
    ok(p.dbt(['run', '-s', 'loud', 'reader', '--defer', '--state', state, '--threads', '2']));
    expect(p.rows('loud', 'id')).toEqual([{ id: 1, name: 'ALICE' }, { id: 2, name: 'BOB' }]);
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    expect(compiled('loud')).toContain('__dbt__cte__shouted');
    expect(compiled('loud')).toContain(prodRelation('upstream'));
  });

  it('test --defer runs the tests of a node dev has not built against the state\'s relation; without --defer they error', async () => {
    const { p, state } = await prodBuilt();
    expect(p.dbt(['test', '-s', 'upstream']).code).toBe(1);
    const tested = p.dbt(['test', '-s', 'upstream', '--defer', '--state', state]);
    ok(tested);
    expect(Object.values(tested.statuses)).toEqual(['pass', 'pass']);
    // A duplicate in prod fails the state's unique test: the test really reads prod's rows.
    const prod = setup(engine);
    prod.p.write('seeds/people.csv', 'id,name\n1,alice\n1,bob\n');
    await prod.buildProd('test_type:data');
    const failed = prod.p.dbt(['test', '-s', 'upstream', '--defer', '--state', prod.state]);
    expect(failed.code).toBe(1);
    expect(Object.entries(failed.statuses).filter(([id]) => id.startsWith('test.defer.unique_upstream_id')).map(([, s]) => s)).toEqual(['fail']);
  });

  it('sources are never deferred; show and compile --defer read and name the state\'s relation', async () => {
    const { p, buildProd, state, prodRelation } = setup(engine, {
      'models/sources.yml': `version: 2\nsources:\n  - name: raw\n    schema: "{{ target.schema }}"\n    tables:\n      - name: people\n`,
      'models/from_source.sql': "{{ config(materialized='table') }}\nselect count(*) as n from {{ source('raw', 'people') }}\n",
    });
    await buildProd();
    await succeedingRun(p.dir, { command: 'seed' });
    const compile = p.dbt(['compile', '-s', 'from_source', 'reader', '--defer', '--state', state]);
    ok(compile);
    expect(compile.stdout).toContain(prodRelation('upstream'));
    expect(compile.stdout).not.toContain(prodRelation('people'));
    const show = p.dbt(['show', '-s', 'reader', '--defer', '--state', state, '--output', 'json']);
    ok(show);
    expect(show.stdout).toContain('"n": 2');
  });

  it('run-operation --defer: a macro\'s ref() to a node dev has not built reads the state\'s relation', async () => {
    const { p, buildProd, state } = setup(engine, {
      'macros/count_upstream.sql': "{% macro count_upstream() %}\n{% set r = run_query('select count(*) as n from ' ~ ref('upstream')) %}\n{{ log('upstream rows: ' ~ r.rows[0][0], info=True) }}\n{% endmacro %}\n",
    });
    await buildProd();
    await succeedingRun(p.dir, { command: 'seed' });
    expect(p.dbt(['run-operation', 'count_upstream']).code).toBe(1);
    const r = p.dbt(['run-operation', 'count_upstream', '--defer', '--state', state]);
    ok(r);
    expect(r.stdout).toContain('upstream rows: 2');
  });

  it('--defer without a state, or with a folder that has no manifest.json, is refused before anything runs (dbt\'s words)', () => {
    const { p } = setup(engine);
    const none = p.dbt(['run', '-s', 'reader', '--defer']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Received a --defer argument, but no value was provided to --state');
    const missing = p.dbt(['run', '-s', 'reader', '--defer', '--state', join(p.dir, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Could not find manifest in --state path');
    expect(p.relationType('reader')).toBeUndefined();
  });

  it('a state node in another database (PostgreSQL) or a state file that is gone (SQLite) is refused before anything runs (E214, E212)', async () => {
    const { p, buildProd, state } = setup(engine);
    await buildProd();
    if (engine === 'postgres') {
      const path = join(state, 'manifest.json');
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { nodes: Record<string, { database?: string }> };
      manifest.nodes['model.defer.upstream']!.database = 'elsewhere';
      writeFileSync(path, JSON.stringify(manifest));
    } else {
      rmSync(join(p.dir, 'prod.db'));
    }
    const r = p.dbt(['run', '-s', 'reader', '--defer', '--state', state]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(engine === 'postgres' ? "--defer: model.defer.upstream was built in database 'elsewhere'" : "--defer: the state's schema 'main' is in");
    expect(p.relationType('reader')).toBeUndefined();
  });

  it('a view that reads a deferred relation: on PostgreSQL it reads prod\'s schema; on SQLite, where a view cannot read another file, it fails with E213 and is not built', async () => {
    const { p, buildProd, state }: { p: ConformanceProject; buildProd: (...exclude: string[]) => Promise<void>; state: string } = setup(engine, {
      'models/peek.sql': "{{ config(materialized='view') }}\nselect count(*) as n from {{ ref('upstream') }}\n",
    });
    // A new view, not in prod yet (on SQLite, a view in prod's main file would make it unattachable: E212).
    await buildProd('peek');
    const r = p.dbt(['run', '-s', 'peek', '--defer', '--state', state]);
    if (engine === 'postgres') {
      ok(r);
      expect(p.rows('peek')).toEqual([{ n: 2 }]);
      return;
    }
    // The node fails (exit 1), as a node whose render fails does.
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain("view 'peek' cannot read ref('upstream') deferred to the state's relation \"state_main\".\"upstream\"");
    expect(p.relationType('peek')).toBeUndefined();
  });
});

describe('--defer on SQLite: where the state\'s relations are reached', () => {
  const engine = 'sqlite';
  it('a state whose main file holds views cannot be attached under another name: E212 names the fix', async () => {
    const { p, buildProd, state } = setup(engine, { 'models/upstream.sql': "select * from {{ ref('people') }}\n" });
    await buildProd();
    const r = p.dbt(['run', '-s', 'reader', '--defer', '--state', state]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--defer: cannot read the state's SQLite file");
    expect(r.stderr).toContain('build the state in a named schema');
  });

  it('a state built in a named schema (schema_directory) is attached under that name, so its views still read: a dev table reads prod\'s view', () => {
    const p = conformanceProject({
      'dbt_project.yml': "name: defer\nversion: '1.0'\nprofile: shop\nmodels:\n  defer:\n    +schema: analytics\nseeds:\n  defer:\n    +schema: analytics\n",
      'profiles.yml': 'shop:\n  target: dev\n  outputs:\n    prod:\n      type: sqlite\n      threads: 1\n      database: x\n      schema: main\n      schemas_and_paths:\n        main: prod/main.db\n      schema_directory: prod\n    dev:\n      type: sqlite\n      threads: 1\n      database: x\n      schema: main\n      schemas_and_paths:\n        main: warehouse.db\n',
      'seeds/people.csv': 'id,name\n1,alice\n2,bob\n',
      'models/upstream.sql': "select * from {{ ref('people') }}\n",
      'models/reader.sql': "{{ config(materialized='table', schema=none) }}\nselect count(*) as n from {{ ref('upstream') }}\n",
    }, 'defer');
    const prod = p.dbt(['build', '--target', 'prod']);
    ok(prod);
    expect(prod.stdout).toMatch(/OK created sql view model main_analytics\.upstream/);
    cpSync(join(p.dir, 'target'), join(p.dir, 'state'), { recursive: true });
    const r = p.dbt(['run', '-s', 'reader', '--defer', '--state', join(p.dir, 'state')]);
    ok(r);
    expect(p.rows('reader')).toEqual([{ n: 2 }]);
    expect(readFileSync(join(p.dir, 'target/run/defer/models/reader.sql'), 'utf8')).toContain('"main_analytics"."upstream"');
    // Building in that schema too, dev cannot take its name: E212 says so.
    const both = p.dbt(['run', '-s', 'upstream', 'reader', '--defer', '--favor-state', '--state', join(p.dir, 'state')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("it holds views that name its schema 'main_analytics'");
  });

  it('a state built in the same warehouse file needs no attach: its relations are read as this target\'s main', async () => {
    const { p, state } = setup(engine, { 'models/upstream.sql': "select * from {{ ref('people') }}\n" });
    await succeedingRun(p.dir, { command: 'build', writeArtifacts: true });
    cpSync(join(p.dir, 'target'), state, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(state, 'manifest.json'), 'utf8')) as { metadata: { sqlite_warehouse: { main: string } } };
    expect(manifest.metadata.sqlite_warehouse.main).toBe(join(p.dir, 'warehouse.db'));
    ok(p.dbt(['compile', '-s', 'reader', '--defer', '--state', state]));
    expect(readFileSync(join(p.dir, 'target/compiled/defer/models/reader.sql'), 'utf8')).toContain('"main"."upstream"');
  });
});
