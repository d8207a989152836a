import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceProject } from '../support/conformance-project.js';

/**
 * dbt's groups and model access (dbt-core tests/functional/access/test_access.py and
 * groups/test_access.py): `groups:` in property files, a model's `access` (private, protected by
 * default, public) and `group`; a ref to a private model from outside its group, and to a protected
 * model of a package with `restrict-access: true` from another project, are refused at load, in dbt's
 * words (DbtReferenceError), before anything is built; manifest.json carries them; `group:` and
 * `access:` select.
 */
const groupsYml = `groups:
  - name: analytics
    owner:
      name: analytics_owner
  - name: marts
    owner:
      email: marts@example.com
`;

const schemaYml = (refGroup: string) => `models:
  - name: my_model
    description: "my model"
    access: private
    group: analytics
  - name: another_model
    description: "yet another model"
  - name: ref_my_model
    description: "a model that refs my_model"
    group: ${refGroup}
`;

const files = (refGroup: string): Record<string, string> => ({
  'models/my_model.sql': 'select 1 as fun\n',
  'models/another_model.sql': 'select 1234 as notfun\n',
  'models/ref_my_model.sql': "select fun from {{ ref('my_model') }}\n",
  'models/groups.yml': groupsYml,
  'models/schema.yml': schemaYml(refGroup),
});

interface ManifestJson {
  readonly nodes: Record<string, { access?: string; group?: string | null }>;
  readonly groups: Record<string, { name: string; owner: Record<string, unknown>; resource_type: string }>;
}

const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8')) as ManifestJson;

describe('model access and groups', () => {
  it('a private model is read from its own group: it builds, and manifest.json has access, group and groups', () => {
    const p = conformanceProject(files('analytics'), 'test');
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(p.rows('ref_my_model')).toEqual([{ fun: 1 }]);
    const manifest = manifestOf(p.dir);
    expect(manifest.nodes['model.test.my_model']).toMatchObject({ access: 'private', group: 'analytics' });
    expect(manifest.nodes['model.test.another_model']).toMatchObject({ access: 'protected', group: null });
    expect(manifest.nodes['model.test.ref_my_model']).toMatchObject({ access: 'protected', group: 'analytics' });
    expect(manifest.groups['group.test.analytics']).toMatchObject({ name: 'analytics', resource_type: 'group', owner: { name: 'analytics_owner' } });
    expect(manifest.groups['group.test.marts']!.owner).toMatchObject({ email: 'marts@example.com' });
  });

  it('a ref to a private model from another group is refused before anything is built (DbtReferenceError)', () => {
    const p = conformanceProject(files('marts'), 'test');
    const run = p.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("models/ref_my_model.sql:1: Node model.test.ref_my_model attempted to reference node model.test.my_model, which is not allowed because the referenced node is private to the 'analytics' group.");
    expect(p.relationType('my_model')).toBeUndefined();
    expect(p.relationType('another_model')).toBeUndefined();
  });

  it('so is a ref from a model in no group, and from an exposure', () => {
    const noGroup = conformanceProject({ ...files('analytics'), 'models/schema.yml': schemaYml('analytics').replace(/    group: analytics\n$/, '') }, 'test');
    expect(noGroup.dbt(['parse']).stderr).toContain('Node model.test.ref_my_model attempted to reference node model.test.my_model');
    const exposure = conformanceProject({
      ...files('analytics'),
      'models/simple_exposure.yml': `exposures:
  - name: simple_exposure
    label: simple exposure label
    type: dashboard
    depends_on:
      - ref('my_model')
    owner:
      email: something@example.com
`,
    }, 'test');
    const parse = exposure.dbt(['parse']);
    expect(parse.code).toBe(2);
    expect(parse.stderr).toContain("Node exposure.test.simple_exposure attempted to reference node model.test.my_model, which is not allowed because the referenced node is private to the 'analytics' group.");
  });

  it('an access that is no level, and a public ephemeral model, are refused (InvalidAccessTypeError)', () => {
    const bad = conformanceProject({ ...files('analytics'), 'models/schema.yml': 'models:\n  - name: another_model\n    access: unsupported\n' }, 'test');
    const run = bad.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('models/schema.yml:3: Node model.test.another_model has an invalid value (unsupported) for the access field');
    expect(bad.relationType('my_model')).toBeUndefined();
    const ephemeral = conformanceProject({ ...files('analytics'), 'models/schema.yml': 'models:\n  - name: another_model\n    access: public\n    config:\n      materialized: ephemeral\n' }, 'test');
    expect(ephemeral.dbt(['parse']).stderr).toContain("Node model.test.another_model has an invalid value (public) for the access field with 'ephemeral' materialization");
  });

  it('a group no property file declares, a group without owner, and two groups of one name are refused', () => {
    const unknown = conformanceProject({ ...files('analytics'), 'models/schema.yml': schemaYml('finance') }, 'test');
    expect(unknown.dbt(['parse']).stderr).toContain("Invalid group 'finance', expected one of ['analytics', 'marts']");
    const ownerless = conformanceProject({ ...files('analytics'), 'models/groups.yml': 'groups:\n  - name: analytics\n' }, 'test');
    const parse = ownerless.dbt(['parse']);
    expect(parse.code).toBe(2);
    expect(parse.stderr).toContain("models/groups.yml:2: group 'analytics' needs an 'owner' with a name or an email");
    const twice = conformanceProject({ ...files('analytics'), 'models/more_groups.yml': 'groups:\n  - name: marts\n    owner: {name: someone}\n' }, 'test');
    expect(twice.dbt(['parse']).stderr).toMatch(/dbt found two groups with the name 'marts' \(also in models\/(groups|more_groups)\.yml:\d+\)/);
  });

  it('group: and access: select (the project file\'s +group and +access config them too)', () => {
    const p = conformanceProject({
      ...files('analytics'),
      'dbt_project.yml': "name: test\nversion: '1.0'\nprofile: default\nmodels:\n  test:\n    another_model:\n      +access: public\n      +group: marts\n",
    }, 'test');
    const ls = (selector: string) => p.dbt(['ls', '-s', selector, '--resource-type', 'model']).stdout.trim().split('\n').sort();
    expect(ls('group:analytics')).toEqual(['test.my_model', 'test.ref_my_model']);
    expect(ls('group:mar*')).toEqual(['test.another_model']);
    expect(ls('access:private')).toEqual(['test.my_model']);
    expect(ls('access:public')).toEqual(['test.another_model']);
    expect(ls('access:protected')).toEqual(['test.ref_my_model']);
    const bad = p.dbt(['ls', '-s', 'access:privat']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid access selector privat: expected one of: "private", "protected", or "public"');
  });
});

describe('protected models and restrict-access (dbt-core TestRestrictedPackageAccess)', () => {
  const pkg = (restrict: boolean): Record<string, string> => ({
    'dbt_packages/integration/dbt_project.yml': `name: integration\nversion: '1.0'\n${restrict ? 'restrict-access: true\n' : ''}`,
    'dbt_packages/integration/models/table_model.sql': "{{ config(materialized='table') }}\nselect 7 as id\n",
    'dbt_packages/integration/models/schema.yml': 'models:\n  - name: table_model\n    access: protected\n',
    'models/ref_protected_package_model.sql': "select * from {{ ref('integration', 'table_model') }}\n",
  });

  it('a protected model of a package is read from the root project while the package does not restrict access', () => {
    const p = conformanceProject(pkg(false), 'test');
    const run = p.dbt(['run']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(p.rows('ref_protected_package_model')).toEqual([{ id: 7 }]);
  });

  it('is refused once its project file sets restrict-access: true; public makes it readable again', () => {
    const p = conformanceProject(pkg(true), 'test');
    const run = p.dbt(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Node model.test.ref_protected_package_model attempted to reference node model.integration.table_model, which is not allowed because the referenced node is protected to the 'integration' package.");
    expect(p.relationType('table_model')).toBeUndefined();
    p.write('dbt_packages/integration/models/schema.yml', 'models:\n  - name: table_model\n    access: public\n');
    const again = p.dbt(['run']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(p.rows('ref_protected_package_model')).toEqual([{ id: 7 }]);
  });
});
