import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import type { PackageSource } from '../deps/add-package.js';
import { runDeps } from '../deps/run-deps.js';
import { line } from './terminal.js';

export interface DepsFlags {
  projectDir?: string;
  upgrade?: boolean;
  lock?: boolean;
  addPackage?: string;
  source?: PackageSource;
}

/** deps: install the packages of packages.yml / dependencies.yml into the install path, as dbt's deps. */
export async function depsCommand(flags: DepsFlags): Promise<number> {
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  await runDeps({
    projectRoot: flags.projectDir ?? process.cwd(),
    upgrade: flags.upgrade,
    lockOnly: flags.lock,
    addPackage: flags.addPackage,
    source: flags.source,
    log: (text, event) => line(text, { name: event }),
  });
  return 0;
}
