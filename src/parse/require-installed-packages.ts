import { relative } from 'node:path';
import { installedPackages } from '../deps/installed-packages.js';
import { ProjectError } from '../errors/project-error.js';
import type { Project } from '../project/project.js';

/**
 * dbt's check before parsing: every package packages.yml (or
 * dependencies.yml) declares must be installed, else the project's macros
 * and refs into it cannot resolve. The message is dbt's, naming the ones missing.
 */
export function requireInstalledPackages(project: Project, installPath: string | undefined): void {
  const declared = installedPackages(project.root, { 'packages-install-path': installPath });
  const missing = declared.filter((p) => !p.installed);
  if (missing.length === 0) return;
  const where = relative(project.root, missing[0]!.folder.replace(/[/\\][^/\\]+$/, '')) || '.';
  throw new ProjectError(
    `mini-dbt found ${declared.length} package(s) specified in packages.yml, but only ${declared.length - missing.length} package(s) installed in ${where}. ` +
      'Run "mini-dbt deps" to install package dependencies.',
    { hint: `not installed: ${missing.map((p) => p.spec).join(', ')}` },
  );
}
