import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadProject } from '../../../src/project/load-project.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { writeProject } from '../../support/example-project.js';

describe('loadProject', () => {
  it("uses dbt's default paths and database, and finds models, seeds, macros, tests and yml anywhere below", () => {
    const dir = writeProject({
      'project.yml': 'name: p\n',
      'models/a.sql': 'select 1',
      'models/deep/er/b.sql': 'select 2',
      'models/deep/props.yml': 'models:\n  - name: b\n    description: bee\n    columns:\n      - name: x\n        data_tests: [unique]\n',
      'seeds/s.csv': 'a\n1\n',
      'seeds/s.yml': 'seeds:\n  - name: s\n    config:\n      loaded_at: a\n',
      'macros/m.sql': '{% macro m() %}1{% endmacro %}',
      'tests/t.sql': 'select 1 where false',
    });
    const p = loadProject(dir);
    expect(p.paths).toEqual({
      models: ['models'], seeds: ['seeds'], macros: ['macros'], tests: ['tests'], target: 'target', snapshots: ['snapshots'],
      // dbt's default docs-paths: every resource path.
      docs: ['models', 'seeds', 'snapshots', 'analyses', 'macros', 'tests'],
    });
    expect(p.databasePath).toBe(join(dir, 'warehouse.db'));
    expect(p.models.map((m) => [m.name, m.path, m.folders])).toEqual([['a', 'models/a.sql', []], ['b', 'models/deep/er/b.sql', ['deep', 'er']]]);
    expect(p.modelProperties.get('b')).toMatchObject({ description: 'bee', columns: [{ name: 'x', tests: ['unique'] }], location: { file: 'models/deep/props.yml', line: 2 } });
    expect(p.seedProperties.get('s')?.config).toEqual({ loaded_at: 'a' });
    expect(p.seeds.map((s) => s.name)).toEqual(['s']);
    expect(p.macros.map((m) => m.path)).toEqual(['macros/m.sql']);
    expect(p.singularTests.map((t) => t.name)).toEqual(['t']);
  });

  it('honours custom paths, database and --database', () => {
    const dir = writeProject({ 'project.yml': 'name: p\nmodel-paths: [transform]\ndatabase: data/w.sqlite\n', 'transform/x.sql': 'select 1' });
    expect(loadProject(dir).models.map((m) => m.path)).toEqual(['transform/x.sql']);
    expect(loadProject(dir).databasePath).toBe(join(dir, 'data/w.sqlite'));
    expect(loadProject(dir, { database: '/tmp/other.db' }).databasePath).toBe('/tmp/other.db');
  });

  it("checks the project file with zod's own messages", () => {
    const problem = (yml: string) => {
      try {
        loadProject(writeProject({ 'project.yml': yml }));
      } catch (err) {
        return (err as Error).message;
      }
      return 'no error';
    };
    expect(problem('name: 3\n')).toBe("invalid value for 'name' in project.yml: Invalid input: expected string, received number");
    expect(problem('name: ok\nbusy-timeout: 1.5\n')).toBe("invalid value for 'busy-timeout' in project.yml: Invalid input: expected int, received number");
    expect(problem('name: ok\nbusy-timeout: -1\n')).toBe("invalid value for 'busy-timeout' in project.yml: Too small: expected number to be >=0");
    expect(problem('name: ok\nvars: [1]\n')).toBe("invalid value for 'vars' in project.yml: Invalid input: expected record, received array");
    expect(problem('name: ok\nmodel-paths: 3\n')).toBe("invalid value for 'model-paths' in project.yml: expected a folder name or a list of folder names");
  });

  it('reads dbt_project.yml when there is no project.yml', () => {
    const dir = writeProject({ 'dbt_project.yml': "name: jaffle\nversion: '1.0'\nconfig-version: 2\nprofile: jaffle\nclean-targets: [target]\n" });
    const p = loadProject(dir);
    expect([p.name, p.configFile]).toEqual(['jaffle', 'dbt_project.yml']);
  });

  it('rejects two models with the same name in different folders', () => {
    const dir = writeProject({ 'project.yml': 'name: p\n', 'models/a/x.sql': 'select 1', 'models/b/x.sql': 'select 2' });
    expect(() => loadProject(dir)).toThrow(/two models are named 'x': models\/a\/x\.sql and models\/b\/x\.sql/);
  });

  it('gives file and line for a bad entry in a properties file', () => {
    const dir = writeProject({ 'project.yml': 'name: p\n', 'models/s.yml': 'models:\n  - name: a\n  - description: no name\n' });
    try {
      loadProject(dir);
      expect.unreachable();
    } catch (err) {
      expect((err as ProjectError).format()).toBe("models/s.yml:3: an entry under 'models' has no 'name'");
    }
  });

  it("refuses 'tests' and 'data_tests' on the same element, as dbt does", () => {
    const dir = writeProject({ 'project.yml': 'name: p\n', 'models/s.yml': 'models:\n  - name: a\n    tests: [x]\n    data_tests: [y]\n' });
    expect(() => loadProject(dir)).toThrow(/cannot have both 'tests' and 'data_tests'/);
  });
});
