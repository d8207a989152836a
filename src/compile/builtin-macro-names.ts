import { ProjectError } from '../errors/project-error.js';
import type { MacroFile } from '../project/project.js';
import { findLine } from './find-line.js';

/**
 * Builtins a project macro may replace, as in dbt: ref, source and config
 * (the override reaches the original as builtins.ref / builtins.source /
 * builtins.config) and is_incremental (a macro of dbt's global project).
 */
export const OVERRIDABLE_BUILTINS: ReadonlySet<string> = new Set(['ref', 'source', 'config', 'is_incremental']);

/**
 * The error for a project macro named like a builtin that cannot be replaced
 * (var, this, return, env_var, adapter, range, ...), naming the macro's file
 * and line; undefined when `name` is free or may be overridden.
 */
export function builtinMacroNameProblem(name: string, builtins: ReadonlySet<string>, file: MacroFile): ProjectError | undefined {
  if (!builtins.has(name) || OVERRIDABLE_BUILTINS.has(name)) return undefined;
  const definition = new RegExp(`\\{%-?\\s*macro\\s+${name}\\b`).exec(file.source);
  const line = definition ? findLine(file.source, definition[0]) : undefined;
  return new ProjectError(`macro '${name}' has the name of a builtin of the template context, which a macro cannot replace`, {
    location: { file: file.path, line },
    hint: `rename the macro; of the builtins, only ${[...OVERRIDABLE_BUILTINS].join(', ')} can be replaced by a project macro (as in dbt)`,
  });
}
