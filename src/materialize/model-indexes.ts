import { quoteIdentifier } from '../engine/quote-identifier.js';
import type { NodeConfig } from '../compile/manifest.js';
import { effectiveStrategy, uniqueKeyColumns } from '../config/model-config.js';
import { strategyRules } from './incremental/strategy-registry.js';
import { indexName } from './staging-names.js';

export interface IndexConfig {
  readonly columns: readonly string[];
  readonly unique: boolean;
}

/** The `indexes` config (dbt-postgres style: [{columns: [...], unique: bool}] or [[...]]). */
export function indexConfigs(config: NodeConfig): IndexConfig[] {
  const raw = config.indexes;
  if (!Array.isArray(raw)) return [];
  return raw.map((entry) => {
    if (Array.isArray(entry)) return { columns: entry.map(String), unique: false };
    if (typeof entry === 'string') return { columns: [entry], unique: false };
    const e = entry as { columns?: unknown; unique?: unknown };
    const columns = Array.isArray(e.columns) ? e.columns.map(String) : [String(e.columns)];
    return { columns, unique: e.unique === true };
  });
}

/**
 * CREATE INDEX statements for a freshly built (and swapped-in) table: the
 * configured indexes, plus the ones an incremental model's strategy needs
 * (IncrementalStrategy.indexes: one on the unique_key so a delete step never
 * scans the whole table; a unique one under merge, for the upsert's ON CONFLICT).
 */
export function indexStatements(alias: string, config: NodeConfig): string[] {
  const indexes = indexConfigs(config);
  const needed = config.materialized === 'incremental' ? strategyRules(effectiveStrategy(config)).indexes(uniqueKeyColumns(config)) : [];
  for (const need of needed) {
    if (!indexes.some((i) => i.columns.join() === need.columns.join() && (i.unique || !need.unique))) indexes.push({ columns: need.columns, unique: need.unique });
  }
  return indexes.map((i) =>
    `create ${i.unique ? 'unique ' : ''}index ${quoteIdentifier(indexName(alias, i.columns, i.unique))} on ${quoteIdentifier(alias)} (${i.columns.map(quoteIdentifier).join(', ')})`,
  );
}
