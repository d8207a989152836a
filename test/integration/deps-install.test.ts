import { existsSync, lstatSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedPackages } from '../../src/deps/installed-packages.js';
import { serveHub, writeHub, type HubServer } from '../support/deps-hub.js';
import { depsWorld, hubPackages, packagesYml, runDeps, type DepsWorld } from '../support/deps-project.js';
import { writeProject } from '../support/example-project.js';
import { runCliAsync } from '../support/run-cli.js';

/** deps against a hub served by this process, a bare git repository and a local folder: no network. */
describe('mini-dbt deps: hub, git and local packages, the lock file, --upgrade', () => {
  let dir: string;
  let world: DepsWorld;
  let hub: HubServer;
  const deps = (...args: string[]) => runDeps(dir, hub.url, ...args);
  const indexRequests = () => hub.requests.filter((r) => r === '/api/v1/index.json').length;
  const lock = () => parse(readFileSync(join(dir, 'package-lock.yml'), 'utf8')) as { packages: Record<string, string>[]; sha1_hash: string };
  const installedVersion = (name: string) => (parse(readFileSync(join(dir, 'dbt_packages', name, 'dbt_project.yml'), 'utf8')) as { version: string }).version;

  beforeAll(async () => {
    dir = writeProject({ 'dbt_project.yml': 'name: shop\n', 'models/a.sql': 'select 1 as x\n' });
    world = depsWorld(dir);
    hub = await serveHub(world.hubDir);
    writeFileSync(join(dir, 'packages.yml'), packagesYml(
      'package: acme/orders\n    version: [">=1.0.0", "<2.0.0"]',
      `git: "${world.repo.url}"\n    revision: v1.0.0\n    subdirectory: pkgs/git_pkg`,
      'local: vendor/local_pkg',
    ));
  });
  afterAll(() => hub.close());

  it('installedPackages says nothing is installed yet, without the network', () => {
    const before = hub.requests.length;
    const listed = installedPackages(dir, {});
    expect(listed.map((p) => [p.spec, p.installed])).toEqual([['acme/orders', false], [`${world.repo.url}/pkgs/git_pkg`, false], ['vendor/local_pkg', false]]);
    expect(listed[2]).toMatchObject({ name: 'local_pkg', folder: join(dir, 'dbt_packages', 'local_pkg') });
    expect(hub.requests.length).toBe(before);
  });

  it('installs every package under its project name, the transitive one at the highest version the ranges allow', async () => {
    const r = await deps();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, 'dbt_packages')).sort()).toEqual(['base', 'git_pkg', 'local_pkg', 'orders']);
    expect(installedVersion('orders')).toBe('1.2.0');
    // acme/orders asks for base >=1.0.0,<2.0.0: 1.1.0 (2.0.0 is out of range, 2.1.0-rc1 a prerelease).
    expect(installedVersion('base')).toBe('1.1.0');
    // The git package is its subdirectory, at the tag.
    expect(readFileSync(join(dir, 'dbt_packages/git_pkg/macros/git_pkg.sql'), 'utf8')).toContain("'1.0.0'");
    expect(existsSync(join(dir, 'dbt_packages/git_pkg/README.md'))).toBe(false);
    // The local package is linked, as dbt links it.
    expect(lstatSync(join(dir, 'dbt_packages/local_pkg')).isSymbolicLink()).toBe(true);
    expect(r.stdout).toContain('Installing acme/orders\n');
    expect(r.stdout).toContain('Installed from version 1.2.0\nUp to date!\n');
    expect(r.stdout).toContain(`Installing ${world.repo.url}/pkgs/git_pkg\nInstalled from revision ${world.repo.tagSha}\nand subdirectory pkgs/git_pkg\n`);
    expect(r.stdout).toContain('Installing vendor/local_pkg\nInstalled from <local @ vendor/local_pkg>\n');
    // base's newest stable version (2.0.0) is out of the range.
    expect(r.stdout).toContain('Installing acme/base\nInstalled from version 1.1.0\nUpdated version available: 2.0.0\n');
    expect(r.stdout).toContain(`Updating lock file in file path: ${join(dir, 'package-lock.yml')}`);
    // No temporary folder is left next to the install path.
    expect(readdirSync(dir).filter((f) => f.includes('installing'))).toEqual([]);
  });

  it("writes package-lock.yml in dbt's format: every package pinned, with its name, and the spec's hash", () => {
    const text = readFileSync(join(dir, 'package-lock.yml'), 'utf8');
    expect(text).toMatch(/^packages:\n {2}- name: orders\n {4}package: acme\/orders\n {4}version: 1\.2\.0\n/);
    expect(lock().packages).toEqual([
      { name: 'orders', package: 'acme/orders', version: '1.2.0' },
      { git: world.repo.url, name: 'git_pkg', revision: world.repo.tagSha, subdirectory: 'pkgs/git_pkg' },
      { local: 'vendor/local_pkg', name: 'local_pkg' },
      { name: 'base', package: 'acme/base', version: '1.1.0' },
    ]);
    expect(lock().sha1_hash).toMatch(/^[0-9a-f]{40}$/);
    expect(installedPackages(dir, {}).every((p) => p.installed)).toBe(true);
  });

  it('the next deps installs the locked versions, without reading the hub index, even after a newer release', async () => {
    writeHub(world.hubDir, hubPackages(['1.3.0']));
    const indexBefore = indexRequests();
    const r = await deps();
    expect(r.code).toBe(0);
    expect(indexRequests()).toBe(indexBefore);
    expect(installedVersion('orders')).toBe('1.2.0');
    expect(r.stdout).toContain('Installed from version 1.2.0\nUpdated version available: 1.3.0\n');
    expect(r.stdout).toContain("Updates available for packages: ['acme/orders', 'acme/base']");
    expect(r.stdout).not.toContain('Updating lock file');
  });

  it('--upgrade resolves again: the newest version in range', async () => {
    const r = await deps('--upgrade');
    expect(r.code).toBe(0);
    expect(installedVersion('orders')).toBe('1.3.0');
    expect(lock().packages[0]).toEqual({ name: 'orders', package: 'acme/orders', version: '1.3.0' });
    expect(r.stdout).toContain('Updating lock file');
  });

  it('a changed packages.yml (its hash) makes deps resolve again; --lock writes only the lock', async () => {
    const hash = lock().sha1_hash;
    writeFileSync(join(dir, 'packages.yml'), packagesYml('package: acme/orders\n    version: "1.0.0"', 'local: vendor/local_pkg'));
    const r = await deps('--lock');
    expect(r.code).toBe(0);
    expect(lock().sha1_hash).not.toBe(hash);
    expect(lock().packages.map((p) => p.name)).toEqual(['orders', 'local_pkg', 'base']);
    expect(lock().packages[0]!.version).toBe('1.0.0');
    // Nothing installed by --lock: the last install stands.
    expect(installedVersion('orders')).toBe('1.3.0');
    const installed = await deps();
    expect(installed.code).toBe(0);
    expect(installed.stdout).not.toContain('Updating lock file');
    expect(readdirSync(join(dir, 'dbt_packages')).sort()).toEqual(['base', 'local_pkg', 'orders']);
    expect(installedVersion('orders')).toBe('1.0.0');
  });

  it('--add-package adds a hub package to packages.yml and installs it', async () => {
    const r = await deps('--add-package', 'acme/legacy@0.9.0');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'packages.yml'), 'utf8')).toContain('package: acme/legacy');
    expect(r.stdout).toContain(`Added new package acme/legacy@0.9.0 to ${join(dir, 'packages.yml')}`);
    // legacy asks for base <1.1.0, orders 1.0.0 for <2.0.0: base 1.0.0.
    expect(installedVersion('legacy')).toBe('0.9.0');
    expect(installedVersion('base')).toBe('1.0.0');
  });

  it('reads dependencies.yml (dbt 1.6+) and refuses packages in both files', async () => {
    writeFileSync(join(dir, 'dependencies.yml'), packagesYml('local: vendor/local_pkg'));
    const both = await deps();
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Error: dependencies.yml: The 'packages' key cannot be specified in both packages.yml and dependencies.yml");
    writeFileSync(join(dir, 'packages.yml'), '# moved to dependencies.yml\n');
    const r = await deps();
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, 'dbt_packages'))).toEqual(['local_pkg']);
  });

  it('a prerelease is installed only when asked for', async () => {
    writeFileSync(join(dir, 'dependencies.yml'), packagesYml('package: acme/base\n    version: ">=2.0.0"'));
    expect((await deps()).code).toBe(0);
    expect(installedVersion('base')).toBe('2.0.0');
    writeFileSync(join(dir, 'dependencies.yml'), packagesYml('package: acme/base\n    version: ">=2.0.0"\n    install-prerelease: true'));
    expect((await deps()).code).toBe(0);
    expect(installedVersion('base')).toBe('2.1.0-rc1');
  });

  it("skips hub versions whose require_dbt_version excludes the dbt version mini-dbt behaves as, unless DBT_VERSION_CHECK=false", async () => {
    writeFileSync(join(dir, 'dependencies.yml'), packagesYml('package: acme/modern\n    version: ">=1.0.0"'));
    expect((await deps()).code).toBe(0);
    expect(installedVersion('modern')).toBe('1.0.0');
    writeFileSync(join(dir, 'dependencies.yml'), packagesYml('package: acme/modern\n    version: "2.0.0"'));
    const refused = await deps();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("Compatible versions: ['1.0.0']\n  Not shown: package versions incompatible with the dbt version mini-dbt behaves as");
    const unchecked = await runCliAsync(['deps', '--project-dir', dir], { env: { DBT_PACKAGE_HUB_URL: hub.url, DBT_VERSION_CHECK: 'false' } });
    expect(unchecked.code).toBe(0);
    expect(installedVersion('modern')).toBe('2.0.0');
  });

  it('packages-install-path names the install folder', async () => {
    writeFileSync(join(dir, 'dbt_project.yml'), 'name: shop\npackages-install-path: vendored\n');
    writeFileSync(join(dir, 'dependencies.yml'), packagesYml('local: vendor/local_pkg'));
    expect((await deps()).code).toBe(0);
    expect(readdirSync(join(dir, 'vendored'))).toEqual(['local_pkg']);
    expect(installedPackages(dir, { 'packages-install-path': 'vendored' })[0]).toMatchObject({ name: 'local_pkg', installed: true, folder: join(dir, 'vendored', 'local_pkg') });
  });
});
