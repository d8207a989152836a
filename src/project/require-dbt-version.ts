import { createRequire } from 'node:module';
import { ProjectError } from '../errors/project-error.js';
import { DBT_VERSION } from '../invocation/tool-version.js';

/**
 * dbt's `require-dbt-version` check for one project (root or package): every
 * specifier (`>=1.3.0`, `<2.0.0`, `1.10.18`) must hold for the dbt version
 * mini-dbt behaves as. DBT_VERSION_CHECK=false skips it, as dbt's
 * --no-version-check does.
 */
export function checkRequiredDbtVersion(projectName: string, required: readonly string[] | undefined, file: string, isRoot: boolean): void {
  if (!required || required.length === 0 || /^(false|0|no)$/i.test(process.env.DBT_VERSION_CHECK ?? '')) return;
  // Loaded only for a project or package that states a requirement (most commands of most projects never need it).
  const semver = createRequire(import.meta.url)('semver') as typeof import('semver');
  const range = required.map((r) => String(r).trim().replace(/^=(?!=)/, '')).join(' ');
  if (semver.validRange(range) === null) {
    throw new ProjectError(`require-dbt-version of '${projectName}' is not a version range: ${JSON.stringify(required)}`, { location: { file } });
  }
  if (semver.satisfies(DBT_VERSION, range)) return;
  const what = isRoot ? 'project' : 'package';
  throw new ProjectError(
    `Version error for ${what} ${projectName}: This version of dbt is not supported with the '${projectName}' ${what}.\n` +
      `  Installed version of dbt: =${DBT_VERSION}\n  Required version of dbt for '${projectName}': [${required.map((r) => `'${r}'`).join(', ')}]`,
    {
      location: { file },
      hint: isRoot
        ? 'mini-dbt behaves as the dbt version above; or set DBT_VERSION_CHECK=false to skip the check (dbt --no-version-check)'
        : `check for a different version of the '${projectName}' package, or set DBT_VERSION_CHECK=false to skip the check (dbt --no-version-check)`,
    },
  );
}
