import { describe, expect, it } from 'vitest';
import { JinjaEnvironment } from '../../../src/compile/jinja-environment.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { loadProject } from '../../../src/project/load-project.js';
import { renderYmlValues } from '../../../src/parse/render-yml.js';
import { writeProject } from '../../support/example-project.js';

const render = (files: Record<string, string>, cliVars: Record<string, unknown> = {}, projectVars: Record<string, unknown> = {}) => {
  const project = loadProject(writeProject(files));
  const jinja = new JinjaEnvironment(project.macros);
  return renderYmlValues(project, { jinja: () => jinja, cliVars, vars: { ...projectVars, ...project.vars, ...cliVars } });
};

const problem = (files: Record<string, string>, cliVars: Record<string, unknown> = {}): string => {
  try {
    render(files, cliVars);
  } catch (err) {
    return (err as ProjectError).format();
  }
  return 'no error';
};

describe('Jinja in yml values, rendered as dbt renders it', () => {
  it('leaves a project without Jinja in its yml as it is (the same object, no var read)', () => {
    const files = { 'project.yml': 'name: p\nmodels:\n  +materialized: table\n', 'models/s.yml': 'models:\n  - name: a\n    description: plain\n' };
    const project = loadProject(writeProject(files));
    const result = renderYmlValues(project, { jinja: () => { throw new Error('no environment is needed'); }, cliVars: {}, vars: {} });
    expect(result.project).toBe(project);
    expect(result.varsRead).toEqual([]);
  });

  it("renders a value that is one {{ expression }} to the expression's own value, anything else to text", () => {
    const files = {
      'project.yml': "name: p\nmodels:\n  p:\n    +enabled: \"{{ var('load_source_data', false) }}\"\n    +tags: \"{{ ['a', 'b'] }}\"\n    +alias: \"x_{{ var('suffix', 'y') }}\"\n    +limit: \"{{ 1 + 2 }}\"\n",
    };
    expect(render(files).project.modelFolderConfigs).toEqual({ p: { '+enabled': false, '+tags': ['a', 'b'], '+alias': 'x_y', '+limit': 3 } });
    expect(render(files, { load_source_data: true }).project.modelFolderConfigs).toMatchObject({ p: { '+enabled': true } });
    expect(render(files).varsRead).toEqual(['load_source_data', 'suffix']);
  });

  it("gives the project file only --vars, as dbt's project renderer does; property files see the project's vars too", () => {
    const files = {
      'project.yml': "name: p\nvars:\n  flag: true\nmodels:\n  +enabled: \"{{ var('flag', false) }}\"\n",
      'models/s.yml': "sources:\n  - name: raw\n    tables:\n      - name: t\n        identifier: \"{{ var('flag', false) }}\"\n",
    };
    const { project } = render(files);
    expect(project.modelFolderConfigs).toEqual({ '+enabled': false });
    expect(project.sources[0]!.identifier).toBe('true');
  });

  it('renders a source identifier, descriptions, column data types and yml configs, and leaves hooks and tests for later', () => {
    const files = {
      'project.yml': "name: p\nmodels:\n  +post-hook: \"insert into log select '{{ this }}'\"\n",
      'models/s.yml': [
        'sources:',
        '  - name: raw',
        '    tables:',
        "      - name: seed",
        "        identifier: \"{{ var('seed_name', 'base') }}\"",
        "        description: \"the {{ var('seed_name', 'base') }} table\"",
        'models:',
        '  - name: a',
        "    description: \"{{ target.name }} model\"",
        '    config:',
        "      materialized: \"{{ 'table' if target.name == 'dev' else 'view' }}\"",
        "      post_hook: \"select '{{ this }}'\"",
        '    columns:',
        '      - name: x',
        "        description: \"{{ var('seed_name', 'base') }} id\"",
        "        data_type: \"{{ 'integer' }}\"",
        "        data_tests: [\"{{ 'unique' }}\"]",
        '',
      ].join('\n'),
    };
    const { project, varsRead } = render(files, { seed_name: 'other' });
    expect(project.sources[0]).toMatchObject({ identifier: 'other', description: 'the other table' });
    const a = project.modelProperties.get('a')!;
    expect(a.description).toBe('dev model');
    expect(a.config).toEqual({ materialized: 'table', post_hook: "select '{{ this }}'" });
    expect(a.columns[0]).toMatchObject({ description: 'other id', dataType: 'integer', tests: ["{{ 'unique' }}"] });
    expect(a.location).toMatchObject({ file: 'models/s.yml', line: 8 });
    expect(project.modelFolderConfigs).toEqual({ '+post-hook': "insert into log select '{{ this }}'" });
    expect(varsRead).toEqual(['seed_name']);
  });

  it('names the yml file and the line of the value that fails to render', () => {
    const sources = "sources:\n  - name: raw\n    tables:\n      - name: seed\n        identifier: \"{{ var('seed_name') }}\"\n";
    expect(problem({ 'project.yml': 'name: p\n', 'models/s.yml': sources })).toBe(
      "models/s.yml:5: could not render 'identifier' (\"{{ var('seed_name') }}\"): Required var 'seed_name' not found in config.\n  hint: pass it with --vars, set it under vars: in the project file, or give var() a default",
    );
    expect(problem({ 'project.yml': 'name: p\n', 'models/s.yml': sources }, { seed_name: 'base' })).toBe('no error');
    expect(problem({ 'project.yml': "name: p\nmodels:\n  p:\n    +enabled: \"{{ var('load') }}\"\n" })).toMatch(
      /^project\.yml:4: could not render 'models\.p\.\+enabled' \("\{\{ var\('load'\) \}\}"\): Required var 'load' not found in config\.\n {2}hint: the project file's Jinja sees only --vars/,
    );
    expect(problem({ 'project.yml': 'name: p\n', 'models/s.yml': 'models:\n  - name: a\n    description: "{{ oops( }}"\n' })).toMatch(
      /^models\/s\.yml:3: could not render 'description' \("\{\{ oops\( \}\}"\): template syntax error/,
    );
    expect(problem({ 'project.yml': 'name: p\n', 'models/s.yml': "models:\n  - name: a\n    config:\n      alias: \"{{ ref('b') }}\"\n" })).toMatch(
      /^models\/s\.yml:4: could not render 'config\.alias' .*ref\(\) cannot be used in a yml value/,
    );
  });
});
