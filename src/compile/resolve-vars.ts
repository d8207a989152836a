import type { ConfigMap } from '../project/project.js';

/** dbt's var precedence: --vars over project-scoped vars over global project vars. */
export function resolveVars(projectVars: ConfigMap, projectName: string, cliVars: ConfigMap): Record<string, unknown> {
  const scoped = projectVars[projectName];
  const globals = Object.fromEntries(Object.entries(projectVars).filter(([k]) => k !== projectName || typeof scoped !== 'object'));
  return {
    ...globals,
    ...(typeof scoped === 'object' && scoped !== null && !Array.isArray(scoped) ? (scoped as object) : {}),
    ...cliVars,
  };
}

/**
 * The vars a node of an installed package sees, as dbt resolves them:
 * --vars, then the root project's (globals and those under the package's
 * name), then the package's own dbt_project.yml vars (globals and scoped).
 */
export function resolvePackageVars(rootVars: ConfigMap, packageVars: ConfigMap, pkg: string, cliVars: ConfigMap): Record<string, unknown> {
  return { ...resolveVars(packageVars, pkg, {}), ...resolveVars(rootVars, pkg, {}), ...cliVars };
}
