import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHub, type HubServer } from '../support/deps-hub.js';
import { depsWorld, packagesYml, runDeps, type DepsWorld } from '../support/deps-project.js';
import { writeProject } from '../support/example-project.js';
import { runCliAsync } from '../support/run-cli.js';

/** Git revisions (tag, branch, commit), packages declared by git and local packages, cycles, an empty packages file. */
describe('mini-dbt deps: git revisions and what git and local packages declare', () => {
  let dir: string;
  let world: DepsWorld;
  let hub: HubServer;
  const deps = (...args: string[]) => runDeps(dir, hub.url, ...args);
  const gitMacro = () => readFileSync(join(dir, 'dbt_packages/git_pkg/macros/git_pkg.sql'), 'utf8');
  const lockOf = () => (parse(readFileSync(join(dir, 'package-lock.yml'), 'utf8')) as { packages: Record<string, string>[] }).packages;
  const packagesFile = (...entries: string[]) => writeFileSync(join(dir, 'packages.yml'), packagesYml(...entries));

  beforeAll(async () => {
    dir = writeProject({ 'dbt_project.yml': 'name: shop\n' });
    world = depsWorld(dir);
    hub = await serveHub(world.hubDir);
  });
  afterAll(() => hub.close());

  it('a full commit sha is fetched by id; the lock keeps it', async () => {
    packagesFile(`git: "${world.repo.url}"\n    revision: ${world.repo.tagSha}\n    subdirectory: pkgs/git_pkg`);
    const r = await deps();
    expect(r.code).toBe(0);
    expect(gitMacro()).toContain("'1.0.0'");
    expect(lockOf()[0]).toMatchObject({ revision: world.repo.tagSha });
  });

  it('a branch is checked out at its head, pinned in the lock to the commit; unpinned branches warn unless warn-unpinned: false', async () => {
    packagesFile(`git: "${world.repo.url}"\n    revision: main\n    subdirectory: pkgs/git_pkg`);
    const warned = await deps();
    expect(warned.code).toBe(0);
    expect(gitMacro()).toContain("'main'");
    expect(lockOf()[0]).toMatchObject({ revision: world.repo.headSha });
    expect(warned.stderr).toContain(`Warning: The git package "${world.repo.url}" is pinned to the "main" branch.`);
    packagesFile(`git: "${world.repo.url}"\n    revision: main\n    subdirectory: pkgs/git_pkg\n    warn-unpinned: false`);
    const quiet = await deps();
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it("renders env_var() in the packages file (a token in a git URL), and keeps it unrendered in the lock", async () => {
    packagesFile(`git: "{{ env_var('TOOLS_REPO') }}"\n    revision: v1.0.0\n    subdirectory: pkgs/git_pkg`);
    const run = async (env: Record<string, string>) => {
      const r = await runCliAsync(['deps', '--project-dir', dir], { env: { DBT_PACKAGE_HUB_URL: hub.url, ...env } });
      return { ...r, stdout: r.stdout.replace(/^\d\d:\d\d:\d\d {2}/gm, '') };
    };
    const r = await run({ TOOLS_REPO: world.repo.url });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(gitMacro()).toContain("'1.0.0'");
    expect(lockOf()[0]).toMatchObject({ git: "{{ env_var('TOOLS_REPO') }}", revision: world.repo.tagSha });
    expect(r.stdout).toContain("Installing {{ env_var('TOOLS_REPO') }}/pkgs/git_pkg");
    expect(r.stdout).not.toContain(world.repo.url);
    const again = await run({ TOOLS_REPO: world.repo.url });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('Updating lock file');
    const missing = await runCliAsync(['deps', '--project-dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Error: packages.yml:2: package entry 1: 'git': Env var required but not provided: 'TOOLS_REPO'");
  });

  it('two revisions of one git package are refused with dbt\'s message', async () => {
    mkdirSync(join(dir, 'vendor/pins_git'), { recursive: true });
    writeFileSync(join(dir, 'vendor/pins_git/dbt_project.yml'), 'name: pins_git\n');
    writeFileSync(join(dir, 'vendor/pins_git/packages.yml'), packagesYml(`git: "${world.repo.url}"\n    revision: v1.0.0\n    subdirectory: pkgs/git_pkg`));
    packagesFile(`git: "${world.repo.url}"\n    revision: main\n    subdirectory: pkgs/git_pkg\n    warn-unpinned: false`, 'local: vendor/pins_git');
    const r = await deps();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Error: git dependencies should contain exactly one version. ${world.repo.url}/pkgs/git_pkg contains: {'main', 'v1.0.0'}`);
  });

  it("a local package's own packages.yml is resolved too, and a cycle between local packages ends", async () => {
    mkdirSync(join(dir, 'vendor/a'), { recursive: true });
    mkdirSync(join(dir, 'vendor/b'), { recursive: true });
    writeFileSync(join(dir, 'vendor/a/dbt_project.yml'), 'name: pkg_a\n');
    writeFileSync(join(dir, 'vendor/a/packages.yml'), packagesYml('local: vendor/b', 'package: acme/base\n    version: "1.0.0"'));
    writeFileSync(join(dir, 'vendor/b/dbt_project.yml'), 'name: pkg_b\n');
    // Local paths of packages are relative to the root project, as dbt resolves them.
    writeFileSync(join(dir, 'vendor/b/dependencies.yml'), packagesYml('local: vendor/a'));
    packagesFile('local: vendor/a');
    const r = await deps();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, 'dbt_packages')).sort()).toEqual(['base', 'pkg_a', 'pkg_b']);
    expect(lockOf().map((p) => p.name)).toEqual(['pkg_a', 'pkg_b', 'base']);
  });

  it('a package named like the root project is refused (dbt\'s message)', async () => {
    mkdirSync(join(dir, 'vendor/shop'), { recursive: true });
    writeFileSync(join(dir, 'vendor/shop/dbt_project.yml'), 'name: shop\n');
    packagesFile('local: vendor/shop');
    const r = await deps();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Error: Found a dependency with the same name as the root project "shop". Package names must be unique in a project.');
    expect(existsSync(join(dir, 'dbt_packages/pkg_a'))).toBe(true);
  });

  it("removes the temporary folder a killed deps left behind (its process is gone), not a running one's", async () => {
    const dead = join(dir, '.dbt_packages.installing-999999-abc');
    const running = join(dir, `.dbt_packages.installing-${process.pid}-abc`);
    mkdirSync(join(dead, 'packages'), { recursive: true });
    mkdirSync(running);
    packagesFile('local: vendor/a');
    expect((await deps()).code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });

  it('no packages: a warning, and an empty install path (as dbt leaves it)', async () => {
    writeFileSync(join(dir, 'packages.yml'), 'packages: []\n');
    const r = await deps();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Warning: No packages were found in packages.yml');
    expect(readdirSync(join(dir, 'dbt_packages'))).toEqual([]);
  });
});
