import { ProjectError } from '../../errors/project-error.js';
import { appendStrategy } from './append.js';
import { customMacroStrategy } from './custom-macro.js';
import { deleteInsertStrategy } from './delete-insert.js';
import type { IncrementalStrategy } from './incremental-strategy.js';
import { insertOverwriteStrategy } from './insert-overwrite.js';
import { mergeStrategy } from './merge.js';
import { microbatchStrategy } from './microbatch.js';

/** Adding a strategy: its file, one line here, its test. */
const STRATEGIES: ReadonlyMap<string, IncrementalStrategy> = new Map(
  [
    appendStrategy,
    deleteInsertStrategy,
    mergeStrategy,
    insertOverwriteStrategy,
    microbatchStrategy,
  ].map((s) => [s.name, s]),
);

/** The built-in strategies, in documentation order: the one list of their names. */
export function strategyNames(): string[] {
  return [...STRATEGIES.keys()];
}

/** The same names as a value (derived from the registry, not a second list). */
export const BUILTIN_STRATEGIES: readonly string[] = strategyNames();

export function isBuiltinStrategy(name: string): boolean {
  return STRATEGIES.has(name);
}

/**
 * The rules of a validated model's strategy: a built-in one, else the
 * project's own (loading refused a name with neither).
 */
export function strategyRules(name: string): IncrementalStrategy {
  return STRATEGIES.get(name) ?? customMacroStrategy(name);
}

/** Whether a model's strategy, with this unique_key, deletes or replaces rows: a backfill can rewrite a range only then. */
export function replacesRows(strategy: string, uniqueKey: readonly string[]): boolean {
  const rules = strategyRules(strategy);
  return rules.deletes && !(rules.keylessInsertsOnly === true && uniqueKey.length === 0);
}

/** A built-in strategy, or a project's own when it defines the macro (`hasMacro`). */
export function getStrategy(name: string, hasMacro = false): IncrementalStrategy {
  const strategy = STRATEGIES.get(name);
  if (strategy) return strategy;
  if (hasMacro) return customMacroStrategy(name);
  throw new ProjectError(`unknown incremental_strategy '${name}'; valid: ${strategyNames().join(', ')}`);
}
