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
