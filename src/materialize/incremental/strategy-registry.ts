import { ProjectError } from '../../errors/project-error.js';
import { appendStrategy } from './append.js';
import { deleteInsertStrategy } from './delete-insert.js';
import type { IncrementalStrategy } from './incremental-strategy.js';

const STRATEGIES: ReadonlyMap<string, IncrementalStrategy> = new Map(
  [appendStrategy, deleteInsertStrategy].map((s) => [s.name, s]),
);

export function strategyNames(): string[] {
  return [...STRATEGIES.keys()];
}

export function getStrategy(name: string): IncrementalStrategy {
  const strategy = STRATEGIES.get(name);
  if (!strategy) throw new ProjectError(`unknown incremental_strategy '${name}'; valid: ${strategyNames().join(', ')}`);
  return strategy;
}
