import { ProjectError } from '../../errors/project-error.js';
import type { RenderState } from '../render-state.js';

const message = (value: unknown): string => (value === undefined || value === null ? 'None' : String(value));

/** Records the first failure of a render (as context-functions' guarded() does), then throws it. */
function fail(state: RenderState, error: Error): never {
  if (!state.failure) state.failure = error;
  throw error;
}

/**
 * The members of dbt's `exceptions` namespace that context-functions.ts
 * does not define: raise_not_implemented, raise_database_error,
 * missing_relation, relation_wrong_type, column_type_missing, raise_fail_fast_error.
 * Each fails the node that calls it, as in dbt.
 */
export function moreExceptions(state: RenderState): Record<string, (...args: unknown[]) => never> {
  const where = `model ${state.modelName} (${state.modelPath})`;
  return {
    raise_not_implemented: (msg: unknown) => fail(state, new ProjectError(`Compilation Error in ${where}: ${message(msg)}`)),
    raise_database_error: (msg: unknown) => fail(state, new ProjectError(`Database Error in ${where}\n  ${message(msg)}`)),
    raise_fail_fast_error: (msg: unknown) => fail(state, new ProjectError(`FailFast Error in ${where}: ${message(msg)}`)),
    missing_relation: (relation: unknown) => fail(state, new ProjectError(`Compilation Error in ${where}: Relation ${message(relation)} not found!`)),
    relation_wrong_type: (relation: unknown, expected: unknown) =>
      fail(state, new ProjectError(`Compilation Error in ${where}: Trying to create ${message(expected)} ${message(relation)}, but it currently exists as a ${message((relation as { type?: unknown } | null)?.type)}. Either drop ${message(relation)} manually, or run dbt with \`--full-refresh\` and dbt will drop it for you.`)),
    column_type_missing: (names: unknown) =>
      fail(state, new ProjectError(`Compilation Error in ${where}: Contracted models require data_type to be defined for each column. Please ensure that the column name and data_type are defined within the YAML configuration for the ${message(names)} column(s).`)),
  };
}
