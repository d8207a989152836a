import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeProject } from '../support/example-project.js';
import { runCli } from '../support/run-cli.js';

/** dbt's exposures (dbt-core tests/functional/exposures, our own fixtures): listed, selected, in the manifest, never run. */
describe('exposures', () => {
  const EXPOSURES = `version: 2
exposures:
  - name: weekly_dashboard
    type: dashboard
    maturity: high
    url: https://bi.example.com/d/1
    owner:
      name: Data Team
      email: data@example.com
    depends_on:
      - ref('big')
      - source('raw', 'payments')
    description: Revenue by week
`;
  const project = (exposures = EXPOSURES) => writeProject({
    'dbt_project.yml': "name: shop\nversion: '1.0'\n",
    'seeds/orders.csv': 'id,amount\n1,10\n',
    'models/sources.yml': 'version: 2\nsources:\n  - name: raw\n    tables:\n      - name: payments\n',
    'models/stg.sql': "select * from {{ ref('orders') }}\n",
    'models/big.sql': "select * from {{ ref('stg') }} where amount > 5\n",
    'models/other.sql': 'select 1 as x\n',
    'models/exposures.yml': exposures,
  });

  it('ls lists them as dbt does; +exposure:name selects everything they read; run builds those models and never the exposure', () => {
    const dir = project();
    expect(runCli(['ls', '--project-dir', dir]).stdout).toContain('exposure:shop.weekly_dashboard');
    expect(runCli(['ls', '--resource-type', 'exposure', '--output', 'name', '--project-dir', dir]).stdout.trim()).toBe('weekly_dashboard');
    const upstream = runCli(['ls', '-s', '+exposure:weekly_dashboard', '--output', 'name', '--project-dir', dir]).stdout.trim().split('\n');
    expect(upstream.sort()).toEqual(['big', 'orders', 'raw.payments', 'stg', 'weekly_dashboard']);
    expect(runCli(['seed', '--project-dir', dir]).code).toBe(0);
    const run = runCli(['run', '-s', '+exposure:weekly_dashboard', '--project-dir', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Done\. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2/);
    expect(run.stdout).not.toContain('other');
  });

  it('manifest.json has them under exposures, and the models they read list them as children', () => {
    const dir = project();
    expect(runCli(['parse', '--project-dir', dir]).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'target/manifest.json'), 'utf8'));
    expect(manifest.exposures['exposure.shop.weekly_dashboard']).toMatchObject({
      name: 'weekly_dashboard', resource_type: 'exposure', type: 'dashboard', maturity: 'high', url: 'https://bi.example.com/d/1',
      owner: { name: 'Data Team', email: 'data@example.com' }, original_file_path: 'models/exposures.yml',
      depends_on: { nodes: ['model.shop.big', 'source.shop.raw.payments'] },
    });
    expect(manifest.child_map['model.shop.big']).toContain('exposure.shop.weekly_dashboard');
  });

  it("an installed package's exposures are its own (exposure.<package>.<name>), reading its models", () => {
    const dir = writeProject({
      'dbt_project.yml': "name: shop\nversion: '1.0'\n",
      'models/root_model.sql': 'select 1 as id\n',
      'dbt_packages/pkgx/dbt_project.yml': "name: pkgx\nversion: '1.0'\nconfig-version: 2\n",
      'dbt_packages/pkgx/models/pkg_model.sql': 'select 2 as id\n',
      'dbt_packages/pkgx/models/exposures.yml': "version: 2\nexposures:\n  - name: pkg_app\n    type: application\n    owner: {name: Someone}\n    depends_on: [\"ref('pkg_model')\"]\n",
    });
    const r = runCli(['ls', '-s', '+exposure:pkgx.pkg_app', '--project-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['pkgx.pkg_model', 'exposure:pkgx.pkg_app']);
    // Its fqn is the package, the folders below the package's model path, and the name (not the install path).
    const json = runCli(['ls', '--resource-type', 'exposure', '--output', 'json', '--output-keys', 'fqn', '--project-dir', dir]);
    expect(JSON.parse(json.stdout)).toEqual({ fqn: ['pkgx', 'pkg_app'] });
  });

  it('an exposure reading a model that does not exist is refused, naming it and the closest name', () => {
    const dir = project(EXPOSURES.replace("ref('big')", "ref('bigg')"));
    const r = runCli(['ls', '--project-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("exposure 'weekly_dashboard' depends on a node named 'bigg' which was not found. Did you mean 'big'?");
    expect(r.stderr).toContain('models/exposures.yml:3');
  });
});
