import { ProjectError } from '../../errors/project-error.js';
import { appendStrategy } from './append.js';
import { customMacroStrategy } from './custom-macro.js';
import { deleteInsertStrategy } from './delete-insert.js';
import type { IncrementalStrategy } from './incremental-strategy.js';
import { insertOverwriteStrategy } from './insert-overwrite.js';
import { mergeStrategy } from './merge.js';
import { microbatchStrategy } from './microbatch.js';

const STRATEGIES: ReadonlyMap<string, IncrementalStrategy> = new Map(
  [
    appendStrategy,
    deleteInsertStrategy,
    mergeStrategy,
    insertOverwriteStrategy,
    microbatchStrategy,
  ].map((s) => [s.name, s]),
);

/** The built-in strategies, in documentation order. */
export function strategyNames(): string[] {
  return [...STRATEGIES.keys()];
}

/** A built-in strategy, or a project's own when it defines the macro (`hasMacro`). */
export function getStrategy(name: string, hasMacro = false): IncrementalStrategy {
  const strategy = STRATEGIES.get(name);
  if (strategy) return strategy;
  if (hasMacro) return customMacroStrategy(name);
  throw new ProjectError(`unknown incremental_strategy '${name}'; valid: ${strategyNames().join(', ')}`);
}
