import { resolve } from 'node:path';

/** The install path: the project file's packages-install-path, dbt_packages by default (as dbt). */
export function installPath(projectRoot: string, configured: string | null | undefined): string {
  return resolve(projectRoot, configured ?? 'dbt_packages');
}
