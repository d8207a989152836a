import { ProjectError } from '../../errors/project-error.js';
import { keyIndex, type IncrementalStrategy } from './incremental-strategy.js';

/** The macro a project defines for strategy `name` (dbt: `+` becomes `_`). */
export function strategyMacroName(name: string): string {
  return `get_incremental_${name.replace(/\+/g, '_')}_sql`;
}

/**
 * A project's own strategy: whatever SQL its get_incremental_<name>_sql
 * macro returned for this run (rendered while planning, with dbt's argument
 * dict), run as one step after the new rows are staged.
 */
export function customMacroStrategy(name: string): IncrementalStrategy {
  return {
    name,
    validate: () => [],
    indexes: (uniqueKey) => keyIndex(uniqueKey),
    // Unknowable from here: the project's macro is trusted to replace what it rewrites (a backfill may run it).
    deletes: true,
    statements: ({ model, customSql }) => {
      if (customSql === undefined) throw new ProjectError(`model '${model}': strategy '${name}' needs its macro ${strategyMacroName(name)} rendered`);
      if (customSql.trim() === '') throw new ProjectError(`model '${model}': macro ${strategyMacroName(name)} returned no SQL`);
      return [{ kind: 'exec', role: 'custom', sql: customSql.trim().replace(/;\s*$/, '') }];
    },
  };
}
