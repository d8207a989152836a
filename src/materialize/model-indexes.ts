import { dialect } from '../engine/current-engine.js';
import { qualifiedName, quoteIdentifier } from '../engine/quote-identifier.js';
import type { ModelSettings } from '../config/model-settings.js';
import { strategyRules } from './incremental/strategy-registry.js';
import { indexName } from './staging-names.js';

/**
 * CREATE INDEX statements for a freshly built (and swapped-in) table: the
 * configured indexes, plus the ones an incremental model's strategy needs
 * (IncrementalStrategy.indexes: one on the unique_key so a delete step never
 * scans the whole table, merge's match a seek).
 */
export function indexStatements(alias: string, settings: ModelSettings, schema = 'main'): string[] {
  const indexes = [...settings.indexes];
  const needed = settings.materialized === 'incremental' ? strategyRules(settings.strategy).indexes(settings.uniqueKeyColumns) : [];
  for (const need of needed) {
    if (!indexes.some((i) => i.columns.join() === need.columns.join() && (i.unique || !need.unique))) indexes.push({ columns: need.columns, unique: need.unique });
  }
  return indexes.map((i) =>
    // SQLite names the index's schema; its table is then the one of that schema.
    dialect.createIndex({ name: qualifiedName(schema, indexName(alias, i.columns, i.unique)), table: quoteIdentifier(alias), columns: i.columns.map(quoteIdentifier).join(', '), unique: i.unique }),
  );
}
