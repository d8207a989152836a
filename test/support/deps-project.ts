import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bareRepo, type BareRepo } from './deps-git-repo.js';
import { writeHub, type HubPackage } from './deps-hub.js';
import { runCliAsync, type CliResult } from './run-cli.js';

/** The fixture hub: acme/orders depends on acme/base (<2.0.0); base has a 2.x and a prerelease. */
export function hubPackages(extraOrders: readonly string[] = []): Record<string, HubPackage> {
  const needsBase = { packages: [{ package: 'acme/base', version: ['>=1.0.0', '<2.0.0'] }] };
  return {
    'acme/base': { name: 'base', versions: { '1.0.0': {}, '1.1.0': {}, '2.0.0': {}, '2.1.0-rc1': {} } },
    'acme/orders': { name: 'orders', versions: Object.fromEntries(['1.0.0', '1.2.0', ...extraOrders].map((v) => [v, needsBase])) },
    'acme/legacy': { name: 'legacy', versions: { '0.9.0': { packages: [{ package: 'acme/base', version: '<1.1.0' }] } } },
    // 2.0.0 needs a dbt newer than the one mini-dbt behaves as.
    'acme/modern': { name: 'modern', versions: { '1.0.0': { requireDbtVersion: ['>=1.0.0', '<3.0.0'] }, '2.0.0': { requireDbtVersion: ['>=9.0.0'] } } },
  };
}

export interface DepsWorld {
  /** The bare repository of the git package (inside `dir`, under .repos/): its dbt project is in pkgs/git_pkg. */
  readonly repo: BareRepo;
  /** The hub's static files (inside `dir`, under .hub/). */
  readonly hubDir: string;
}

function write(dir: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/**
 * Into the project folder `dir`: a local package (vendor/local_pkg), a bare git repository
 * (.repos/tools.git, tag v1.0.0 then one more commit on main) and the hub's files (.hub/).
 */
export function depsWorld(dir: string): DepsWorld {
  write(dir, {
    'vendor/local_pkg/dbt_project.yml': 'name: local_pkg\nversion: "1.0.0"\n',
    'vendor/local_pkg/macros/local_pkg.sql': "{% macro local_pkg_hello() %}'hello'{% endmacro %}\n",
  });
  const repo = bareRepo(
    join(dir, '.repos/tools.git'),
    { 'README.md': 'tools\n', 'pkgs/git_pkg/dbt_project.yml': 'name: git_pkg\nversion: "1.0.0"\n', 'pkgs/git_pkg/macros/git_pkg.sql': "{% macro git_pkg_version() %}'1.0.0'{% endmacro %}\n" },
    'v1.0.0',
    { 'pkgs/git_pkg/macros/git_pkg.sql': "{% macro git_pkg_version() %}'main'{% endmacro %}\n" },
  );
  const hubDir = join(dir, '.hub');
  writeHub(hubDir, hubPackages());
  return { repo, hubDir };
}

/** A packages.yml of the given entries (YAML flow mappings, one per line). */
export function packagesYml(...entries: string[]): string {
  return `packages:\n${entries.map((e) => `  - ${e}\n`).join('')}`;
}

/** `mini-dbt deps ARGS` on a project against a hub, its output without the time stamps. */
export async function runDeps(dir: string, hubUrl: string, ...args: string[]): Promise<CliResult> {
  const r = await runCliAsync(['deps', ...args, '--project-dir', dir], { env: { DBT_PACKAGE_HUB_URL: hubUrl } });
  return { ...r, stdout: r.stdout.replace(/^\d\d:\d\d:\d\d {2}/gm, '') };
}
