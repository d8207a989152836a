import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BadInput } from './bad-input-catalogue.js';
import { bareRepo } from './deps-git-repo.js';
import { serveHubInChild, writeHub } from './deps-hub.js';
import { hubPackages, packagesYml } from './deps-project.js';

const packages = (...entries: string[]) => (dir: string) => writeFileSync(join(dir, 'packages.yml'), packagesYml(...entries));

/** Point DBT_PACKAGE_HUB_URL at `url` until the returned cleanup. */
function hubAt(url: string): () => void {
  const before = process.env.DBT_PACKAGE_HUB_URL;
  process.env.DBT_PACKAGE_HUB_URL = url;
  return () => {
    if (before === undefined) delete process.env.DBT_PACKAGE_HUB_URL;
    else process.env.DBT_PACKAGE_HUB_URL = before;
  };
}

/** The fixture hub (deps-project.ts), served from a child process while the case runs. */
const withHub = (...entries: string[]) => (dir: string) => {
  packages(...entries)(dir);
  writeHub(join(dir, '.hub'), hubPackages());
  const hub = serveHubInChild(join(dir, '.hub'));
  const restore = hubAt(hub.url);
  return () => {
    restore();
    hub.stop();
  };
};

/** The fixture git repository at <project>/.repos/tools.git (tag v1.0.0), then packages.yml. */
const withRepo = (entry: (url: string) => string) => (dir: string) => {
  const repo = bareRepo(join(dir, '.repos/tools.git'), { 'pkgs/git_pkg/dbt_project.yml': 'name: git_pkg\n' }, 'v1.0.0', { 'README.md': 'tools\n' });
  packages(entry(repo.url))(dir);
};

/**
 * The bad inputs of `mini-dbt deps` (docs/errors.md E180-E189), in the catalogue's shape:
 * each writes packages.yml into a copy of the example project (with a hub served from a child
 * process, or a bare git repository inside the project, where the case needs one).
 */
export const DEPS_BAD_INPUTS: readonly BadInput[] = [
  { id: 'E180', edit: packages('package: acme/orders\n    version: [">=1.0.0"\n  - local: vendor/x'), args: ['deps'] },
  { id: 'E181', edit: packages('pakage: acme/orders\n    version: 1.0.0'), args: ['deps'] },
  { id: 'E182', edit: packages('package: acme/orders'), args: ['deps'] },
  { id: 'E183', edit: withHub('package: acme/ordrs\n    version: 1.0.0'), args: ['deps'] },
  { id: 'E184', edit: withHub('package: acme/orders\n    version: "9.9.9"'), args: ['deps'] },
  { id: 'E185', edit: withHub('package: acme/base\n    version: ">=2.0.0"', 'package: acme/orders\n    version: [">=1.0.0", "<2.0.0"]'), args: ['deps'] },
  {
    id: 'E186',
    edit: (dir) => {
      mkdirSync(join(dir, '.repos'), { recursive: true });
      packages(`git: "${pathToFileURL(join(dir, '.repos/nothere.git')).href}"\n    revision: v1.0.0`)(dir);
    },
    args: ['deps'],
  },
  { id: 'E187', edit: withRepo((url) => `git: "${url}"\n    revision: v9.9.9\n    subdirectory: pkgs/git_pkg`), args: ['deps'] },
  { id: 'E188', edit: packages('local: vendor/nope'), args: ['deps'] },
  { id: 'E189', edit: (dir) => { packages('package: acme/orders\n    version: 1.0.0')(dir); return hubAt('http://127.0.0.1:2/'); }, args: ['deps'] },
];
