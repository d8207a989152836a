import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/**
 * dbt's analyses (docs "Analyses", dbt-core tests/functional/analysis/): .sql files under
 * analysis-paths are parsed (refs, sources, config) and compiled into target/compiled, never run;
 * their configs come from the project file (models: by their fqn, or analyses: under the
 * require_analyses_project_level_config flag), their yml entry and config().
 */
describe('analyses', () => {
  const MODEL = 'select 1 as id';
  const ANALYSIS = "select * from {{ ref('my_model') }}";
  const base = (extra: Record<string, string> = {}, projectExtra = '') => writeProject({
    'dbt_project.yml': `name: test\nversion: '1.0'\nanalysis-paths: ["analyses"]\n${projectExtra}`,
    'models/my_model.sql': MODEL,
    'analyses/my_analysis.sql': ANALYSIS,
    'analyses/second_analysis.sql': 'select 2 as id',
    ...extra,
  });
  const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8')) as { nodes: Record<string, Record<string, unknown>>; child_map: Record<string, string[]> };
  const FLAG = 'flags:\n  require_analyses_project_level_config: true\n';

  it('compiles an analysis into target/compiled with its refs rendered, and never builds it', () => {
    const dir = base();
    const build = runCli(['build', '--project-dir', dir]);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout).toContain('Found 1 model, 2 analyses');
    const compile = runCli(['compile', '--project-dir', dir]);
    expect(compile.code, compile.stderr).toBe(0);
    const compiled = readFileSync(join(dir, 'target/compiled/test/analyses/my_analysis.sql'), 'utf8');
    expect(compiled.trim()).toBe('select * from "main"."my_model"');
    const db = new Database(join(dir, 'warehouse.db'), { readonly: true });
    const relations = (db.prepare("select name from sqlite_master where type in ('table', 'view') and name not like '\\_mini\\_dbt%' escape '\\' and name not like 'sqlite\\_%' escape '\\'").pluck().all() as string[]).sort();
    db.close();
    expect(relations).toEqual(['my_model']);
    const manifest = manifestOf(dir);
    expect(manifest.nodes['analysis.test.my_analysis']).toMatchObject({
      resource_type: 'analysis', fqn: ['test', 'analysis', 'my_analysis'], path: 'analysis/my_analysis.sql', original_file_path: 'analyses/my_analysis.sql',
      depends_on: { nodes: ['model.test.my_model'] }, relation_name: null, raw_code: ANALYSIS,
    });
    expect(manifest.child_map['model.test.my_model']).toContain('analysis.test.my_analysis');
    const results = JSON.parse(readFileSync(join(dir, 'target/run_results.json'), 'utf8')) as { results: { unique_id: string; compiled_code: string }[] };
    expect(results.results.find((r) => r.unique_id === 'analysis.test.my_analysis')?.compiled_code).toBe('select * from "main"."my_model"');
  });

  it('lists, selects, shows and compares analyses like other nodes', () => {
    const dir = base();
    expect(runCli(['run', '--project-dir', dir]).code).toBe(0);
    const ls = runCli(['ls', '--resource-type', 'analysis', '--project-dir', dir]);
    expect(ls.stdout.trim().split('\n').sort()).toEqual(['test.analysis.my_analysis', 'test.analysis.second_analysis']);
    expect(runCli(['ls', '-s', '+my_analysis', '--project-dir', dir]).stdout.trim().split('\n').sort()).toEqual(['test.analysis.my_analysis', 'test.my_model']);
    const show = runCli(['show', '-s', 'my_analysis', '--project-dir', dir]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/\|\s+id\s+\|/);
    runCli(['parse', '--project-dir', dir]);
    const state = join(dir, 'prod');
    runCli(['parse', '--project-dir', dir, '--target-path', state]);
    writeFileSync(join(dir, 'analyses/my_analysis.sql'), `${ANALYSIS} where id = 1`);
    expect(runCli(['ls', '-s', 'state:modified', '--state', state, '--project-dir', dir]).stdout.trim()).toBe('test.analysis.my_analysis');
  });

  it('reads no analyses when the project file names no analysis-paths (dbt has no default)', () => {
    const dir = writeProject({ 'dbt_project.yml': "name: test\nversion: '1.0'\n", 'models/my_model.sql': MODEL, 'analyses/my_analysis.sql': ANALYSIS });
    expect(runCli(['compile', '--project-dir', dir]).code).toBe(0);
    expect(existsSync(join(dir, 'target/compiled/test/analyses'))).toBe(false);
    expect(runCli(['ls', '--project-dir', dir]).stdout.trim()).toBe('test.my_model');
  });

  it("takes dbt's project-level, path-based, in-file and yml configs (with require_analyses_project_level_config)", () => {
    const disabledAll = base({ 'analyses/schema.yml': 'version: 2\nanalyses:\n  - name: my_analysis\n    description: This is my analysis\n' }, `${FLAG}analyses:\n  +enabled: false\n`);
    expect(runCli(['parse', '--project-dir', disabledAll]).code).toBe(0);
    expect(Object.keys(manifestOf(disabledAll).nodes).filter((k) => k.startsWith('analysis.'))).toEqual([]);

    const byPath = writeProject({
      'dbt_project.yml': `name: test\nversion: '1.0'\nanalysis-paths: ["analyses"]\n${FLAG}analyses:\n  test:\n    subdir:\n      +enabled: false\n`,
      'models/my_model.sql': MODEL,
      'analyses/subdir/my_analysis.sql': ANALYSIS,
      'analyses/second_analysis.sql': 'select 2 as id',
    });
    const parsed = runCli(['parse', '--project-dir', byPath]);
    expect(parsed.code, parsed.stderr).toBe(0);
    expect(manifestOf(byPath).nodes['analysis.test.my_analysis']).toBeUndefined();
    expect(manifestOf(byPath).nodes['analysis.test.second_analysis']).toBeDefined();

    const inFile = base({ 'analyses/my_analysis.sql': `{{ config(enabled=true) }}\n${ANALYSIS}` }, `${FLAG}analyses:\n  +enabled: false\n`);
    runCli(['parse', '--project-dir', inFile]);
    expect(manifestOf(inFile).nodes['analysis.test.my_analysis']).toBeDefined();

    const ymlOff = base({ 'analyses/schema.yml': 'version: 2\nanalyses:\n  - name: my_analysis\n    config:\n      enabled: false\n' }, FLAG);
    runCli(['parse', '--project-dir', ymlOff]);
    expect(manifestOf(ymlOff).nodes['analysis.test.my_analysis']).toBeUndefined();

    const ymlOn = base({ 'analyses/schema.yml': 'version: 2\nanalyses:\n  - name: my_analysis\n    description: This is my analysis\n    config:\n      enabled: true\n' }, `${FLAG}analyses:\n  +enabled: false\n`);
    runCli(['parse', '--project-dir', ymlOn]);
    expect(manifestOf(ymlOn).nodes['analysis.test.my_analysis']).toMatchObject({ description: 'This is my analysis' });
  });

  it("without the flag, the project's models: configs reach analyses by their fqn (dbt's older behaviour)", () => {
    const dir = base({}, 'models:\n  +tags: [everywhere]\n  test:\n    analysis:\n      +enabled: false\n');
    expect(runCli(['parse', '--project-dir', dir]).code).toBe(0);
    const nodes = manifestOf(dir).nodes;
    expect(nodes['analysis.test.my_analysis']).toBeUndefined();
    expect(nodes['model.test.my_model']).toMatchObject({ tags: ['everywhere'] });
  });

  it('refuses a ref to a missing or disabled node, naming the analysis, its file and line', () => {
    const missing = base({ 'analyses/my_analysis.sql': "select 1\nfrom {{ ref('my_modle') }}" });
    const out = runCli(['parse', '--project-dir', missing]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("analyses/my_analysis.sql:2: analysis 'my_analysis' depends on a node named 'my_modle' which was not found. Did you mean 'my_model'?");
    const disabled = base({ 'models/my_model.sql': `{{ config(enabled=false) }}\n${MODEL}` });
    const off = runCli(['parse', '--project-dir', disabled]);
    expect(off.code).toBe(2);
    expect(off.stderr).toContain("analysis 'my_analysis' depends on a node named 'my_model' which is disabled");
  });
  it("an installed package's analyses are parsed; one that refs a model the root disables is refused (dbt-core #15415), not hidden", () => {
    const pkg = {
      'my_package/dbt_project.yml': "name: 'my_package'\nversion: '1.0'\nconfig-version: 2\nmodel-paths: [\"models\"]\nanalysis-paths: [\"analyses\"]\n",
      'my_package/models/A.sql': 'select 1 as x',
      'my_package/analyses/my_analysis.sql': "select x + 1 as y from {{ ref('A') }}",
      'packages.yml': 'packages:\n  - local: my_package\n',
    };
    const enabled = writeProject({ 'dbt_project.yml': "name: test\nversion: '1.0'\n", 'models/my_model.sql': MODEL, ...pkg });
    expect(runCli(['deps', '--project-dir', enabled]).code).toBe(0);
    expect(runCli(['parse', '--project-dir', enabled]).code).toBe(0);
    expect(manifestOf(enabled).nodes['analysis.my_package.my_analysis']).toMatchObject({ fqn: ['my_package', 'analysis', 'my_analysis'], depends_on: { nodes: ['model.my_package.A'] } });
    const disabled = writeProject({ 'dbt_project.yml': "name: test\nversion: '1.0'\nmodels:\n  my_package:\n    +enabled: false\n", 'models/my_model.sql': MODEL, ...pkg });
    expect(runCli(['deps', '--project-dir', disabled]).code).toBe(0);
    const out = runCli(['parse', '--project-dir', disabled]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("analysis 'my_analysis' depends on a node named 'A' which is disabled");
  });
});
