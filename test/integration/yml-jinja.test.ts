import Database from 'better-sqlite3';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSession, withVars } from '../../src/index.js';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * Jinja in yml values, as dbt's own adapter tests write it: a source whose
 * identifier is a var (dbt's seed tests), a project-file `+enabled` from a var,
 * descriptions with Jinja. Run through the CLI (the parse cache between
 * commands) and through one session under other --vars (withVars).
 */
const FILES = {
  'dbt_project.yml': [
    'name: yp',
    'config-version: 2',
    'models:',
    '  yp:',
    '    optional:',
    "      +enabled: \"{{ var('load_source_data', false) }}\"",
    '',
  ].join('\n'),
  'seeds/base.csv': 'id\n1\n2\n',
  'seeds/other.csv': 'id\n1\n2\n3\n',
  'models/sources.yml': [
    'sources:',
    '  - name: raw',
    '    tables:',
    '      - name: seed',
    "        identifier: \"{{ var('seed_name', 'base') }}\"",
    "        description: \"the {{ var('seed_name', 'base') }} table\"",
    'models:',
    '  - name: counted',
    "    description: \"counts {{ var('seed_name', 'base') }}\"",
    '',
  ].join('\n'),
  'models/counted.sql': "{{ config(materialized='table') }}select count(*) as n from {{ source('raw', 'seed') }}",
  'models/optional/opt.sql': "{{ config(materialized='table') }}select 1 as x",
};

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function query(sql: string): unknown[] {
  const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}
const counted = () => (query('select n from counted')[0] as { n: number }).n;
const hasOpt = () => query("select name from sqlite_master where name = 'opt'").length === 1;
const cli = (...args: string[]) => {
  const result = runCli([...args, '--project-dir', dir]);
  expect(result.code, result.stderr + result.stdout).toBe(0);
  return result;
};

describe('Jinja in yml values (CLI, through the parse cache)', () => {
  it("a source identifier from var() reads the table it names, and follows --vars; +enabled from var() in the project file follows --vars", () => {
    dir = writeProject(FILES);
    cli('seed');
    cli('run');
    expect(counted()).toBe(2);
    expect(hasOpt()).toBe(false);

    cli('run', '--vars', '{seed_name: other, load_source_data: true}');
    expect(counted()).toBe(3);
    expect(hasOpt()).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8')) as {
      nodes: Record<string, { description?: string }>;
      sources: Record<string, { identifier?: string; description?: string }>;
    };
    expect(manifest.nodes['model.yp.counted']?.description).toBe('counts other');
    expect(manifest.sources['source.yp.raw.seed']).toMatchObject({ identifier: 'other', description: 'the other table' });

    // Back to the defaults: the cached captures must not keep the other values.
    rmSync(join(dir, 'warehouse.db'));
    cli('seed');
    cli('run');
    expect(counted()).toBe(2);
    expect(hasOpt()).toBe(false);
    expect(cli('ls', '--vars', '{load_source_data: true}').stdout).toContain('yp.opt');
    expect(cli('ls').stdout).not.toContain('yp.opt');
  });

  it('renders descriptions into the docs site', () => {
    dir = writeProject(FILES);
    cli('docs', 'generate', '--vars', '{seed_name: other}');
    const html = readFileSync(join(dir, 'target/index.html'), 'utf8');
    expect(html).toContain('counts other');
    expect(html).toContain('the other table');
    expect(html).not.toContain("counts {{ var(");
  });

  it('a Jinja error in a yml value names the file and the line, and changes nothing (exit 2)', () => {
    dir = writeProject({ ...FILES, 'models/sources.yml': FILES['models/sources.yml'].replace("var('seed_name', 'base') }}\"\n        description", "var('seed_name') }}\"\n        description") });
    const result = runCli(['run', '--project-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("models/sources.yml:5: could not render 'identifier' (\"{{ var('seed_name') }}\"): Required var 'seed_name' not found in config.");
    expect(cli('ls', '--vars', '{seed_name: base}').stdout).toContain('yp.raw.seed');
  });
});

describe('Jinja in yml values (one session under other --vars)', () => {
  it('withVars builds the source and the enabled models again when a var a yml value read changes', () => {
    dir = writeProject(FILES);
    const session = loadSession({ projectDir: dir });
    expect(session.manifest.sources.get('raw.seed')?.alias).toBe('base');
    expect(session.manifest.models.has('opt')).toBe(false);

    const other = withVars(session, { seed_name: 'other', load_source_data: true });
    expect(other.manifest.sources.get('raw.seed')?.alias).toBe('other');
    expect(other.manifest.sources.get('raw.seed')?.table.description).toBe('the other table');
    expect(other.manifest.models.has('opt')).toBe(true);
    expect(other.manifest.models.get('counted')?.properties?.description).toBe('counts other');

    const back = withVars(other, {});
    expect(back.manifest.sources.get('raw.seed')?.alias).toBe('base');
    expect(back.manifest.models.has('opt')).toBe(false);

    // A var no yml value reads keeps the manifest's nodes.
    const unrelated = withVars(session, { something_else: 1 });
    expect(unrelated.manifest.models).toBe(session.manifest.models);
  });

  it("a seed's +enabled from var() removes it, and a ref to it says it is disabled", () => {
    dir = writeProject({
      'dbt_project.yml': "name: yp\nseeds:\n  yp:\n    +enabled: \"{{ var('load_source_data', false) }}\"\n",
      'seeds/base.csv': 'id\n1\n',
      'models/m.sql': "select * from {{ ref('base') }}",
    });
    expect(() => loadSession({ projectDir: dir })).toThrow("model 'm' depends on a node named 'base' which is disabled");
    const session = loadSession({ projectDir: dir, vars: { load_source_data: true } });
    expect([...session.manifest.seeds.keys()]).toEqual(['base']);
  });
});
