import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectUserWarnings } from '../../../src/errors/user-warning.js';
import { ProjectError } from '../../../src/errors/project-error.js';
import { loadProject } from '../../../src/project/load-project.js';
import { writeProject } from '../../support/example-project.js';

/** Every top-level key of dbt-core 1.11's dbt_project.yml (its Project contract and JSON schema), with a value dbt accepts. */
const DBT_PROJECT_FILE = `name: jaffle
version: '1.0.0'
config-version: 2
profile: jaffle
model-paths: [models]
seed-paths: [seeds]
test-paths: [tests]
analysis-paths: [analyses]
macro-paths: [macros]
snapshot-paths: [snapshots]
docs-paths: [docs]
asset-paths: [assets]
function-paths: [functions]
target-path: target
log-path: logs
packages-install-path: dbt_packages
clean-targets: [target, dbt_packages]
query-comment:
  comment: "run by {{ target.name }}"
  append: true
require-dbt-version: [">=1.7.0", "<2.0.0"]
quoting:
  database: false
  schema: false
  identifier: true
on-run-start: "create table if not exists audit (x int)"
on-run-end:
  - "select 1"
dispatch:
  - macro_namespace: dbt_utils
    search_order: [jaffle, dbt_utils]
restrict-access: false
dbt-cloud:
  project-id: 12345
flags:
  send_anonymous_usage_stats: false
  require_explicit_package_overrides_for_builtin_materializations: true
packages: []
sync: {}
vars:
  start: '2026-01-01'
models:
  jaffle:
    +materialized: table
seeds:
  jaffle:
    +enabled: true
snapshots:
  jaffle:
    +target_schema: snapshots
analyses:
  jaffle:
    +enabled: true
sources:
  jaffle:
    +enabled: true
data_tests:
  jaffle:
    +severity: warn
unit_tests:
  jaffle:
    +enabled: true
metrics:
  jaffle:
    +enabled: true
semantic-models:
  jaffle:
    +enabled: true
saved-queries:
  jaffle:
    +enabled: true
exposures:
  jaffle:
    +enabled: true
functions:
  jaffle:
    +enabled: true
`;

describe('the project file accepts what dbt_project.yml accepts', () => {
  let warnings: string[];
  let restore: () => void;
  beforeEach(() => {
    warnings = [];
    restore = collectUserWarnings((m) => warnings.push(m));
  });
  afterEach(() => restore());

  const problem = (yml: string): string => {
    try {
      loadProject(writeProject({ 'dbt_project.yml': yml }));
    } catch (err) {
      return (err as ProjectError).format();
    }
    return 'no error';
  };

  it('takes every key dbt knows without a warning', () => {
    const p = loadProject(writeProject({ 'dbt_project.yml': DBT_PROJECT_FILE }));
    expect(warnings).toEqual([]);
    expect(p.name).toBe('jaffle');
    expect(p.modelFolderConfigs).toEqual({ jaffle: { '+materialized': 'table' } });
    expect(p.testFolderConfigs).toEqual({ jaffle: { '+severity': 'warn' } });
  });

  it('takes null for every key dbt lets be null', () => {
    const keys = ['version', 'profile', 'clean-targets', 'quoting', 'on-run-start', 'on-run-end', 'dispatch', 'query-comment', 'flags', 'dbt-cloud', 'snapshots', 'unit_tests', 'saved-queries', 'semantic-models', 'require-dbt-version', 'packages-install-path'];
    expect(problem(`name: p\n${keys.map((k) => `${k}:\n`).join('')}`)).toBe('no error');
    expect(warnings).toEqual([]);
  });

  it('warns about a key dbt does not know, names the closest one, and goes on', () => {
    const p = loadProject(writeProject({ 'project.yml': 'name: p\nmodelz:\n  p:\n    +materialized: table\nclean-target: [target]\n' }));
    expect(p.name).toBe('p');
    expect(warnings).toEqual([
      "project.yml:2: ignored unexpected key 'modelz' in project.yml. Did you mean 'models'?",
      "project.yml:5: ignored unexpected key 'clean-target' in project.yml. Did you mean 'clean-targets'?",
    ]);
    expect(p.modelFolderConfigs).toEqual({});
  });

  it("checks the types dbt checks on the keys mini-dbt does not act on", () => {
    expect(problem('name: p\nclean-targets: target\n')).toBe("dbt_project.yml:2: invalid value for 'clean-targets' in dbt_project.yml: Invalid input: expected array, received string");
    expect(problem('name: p\nconfig-version: two\n')).toBe("dbt_project.yml:2: invalid value for 'config-version' in dbt_project.yml: Invalid input: expected number, received string");
    expect(problem('name: p\non-run-start: 3\n')).toBe("dbt_project.yml:2: invalid value for 'on-run-start' in dbt_project.yml: expected a string or a list of strings");
    expect(problem('name: p\ndispatch:\n  - macro_namespace: dbt_utils\n')).toBe("dbt_project.yml:3: invalid value for 'dispatch.0.search_order' in dbt_project.yml: Invalid input: expected array, received undefined");
    expect(problem('name: p\nrestrict-access: maybe\n')).toBe("dbt_project.yml:2: invalid value for 'restrict-access' in dbt_project.yml: Invalid input: expected boolean, received string");
    expect(problem('name: p\ndbt-cloud: 12345\n')).toBe("dbt_project.yml:2: invalid value for 'dbt-cloud' in dbt_project.yml: Invalid input: expected record, received number");
  });

  it("reads dbt's deprecated source-paths and data-paths, with a warning, and refuses both names at once", () => {
    const dir = writeProject({ 'dbt_project.yml': 'name: p\nsource-paths: [transform]\ndata-paths: [data]\n', 'transform/x.sql': 'select 1', 'data/s.csv': 'a\n1\n' });
    const p = loadProject(dir);
    expect(p.paths.models).toEqual(['transform']);
    expect(p.paths.seeds).toEqual(['data']);
    expect(p.models.map((m) => m.name)).toEqual(['x']);
    expect(warnings).toEqual([
      "dbt_project.yml:2: 'source-paths' is deprecated, read as 'model-paths' (as dbt does); rename it to 'model-paths'",
      "dbt_project.yml:3: 'data-paths' is deprecated, read as 'seed-paths' (as dbt does); rename it to 'seed-paths'",
    ]);
    expect(problem('name: p\nmodel-paths: [models]\nsource-paths: [src]\n')).toMatch(
      /^dbt_project\.yml:3: source-paths and model-paths cannot both be defined: 'source-paths' is the deprecated name of 'model-paths'/,
    );
  });

  it("refuses 'tests' and 'data_tests' both set, as dbt does (an empty one is not set)", () => {
    expect(problem('name: p\ntests:\n  p:\n    +severity: warn\ndata_tests:\n  p:\n    +severity: warn\n')).toMatch(
      /^dbt_project\.yml:2: Invalid project config: cannot have both 'tests' and 'data_tests' defined/,
    );
    expect(problem('name: p\ntests: {}\ndata_tests:\n  p:\n    +severity: warn\n')).toBe('no error');
  });
});
