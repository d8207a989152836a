import { dialect } from '../../engine/current-engine.js';
import { qualifiedName, quoteIdentifier } from '../../engine/quote-identifier.js';
import { ProjectError } from '../../errors/project-error.js';
import { indexName } from '../staging-names.js';
import { keyIndex, type IncrementalStrategy, type StrategyContext } from './incremental-strategy.js';

const given = (v: unknown) => v !== undefined && v !== null;
const unquote = (q: string) => q.slice(1, -1).replace(/""/g, '"');

/** The columns an upsert overwrites: merge_update_columns, or all but merge_exclude_columns (never the key). */
export function mergeUpdateColumns(context: Pick<StrategyContext, 'model' | 'settings' | 'destColumns' | 'uniqueKey'>): string[] {
  const dest = context.destColumns.map(unquote);
  const key = new Set(context.uniqueKey.map((k) => k.toLowerCase()));
  const only = context.settings.mergeUpdateColumns;
  const exclude = context.settings.mergeExcludeColumns;
  if (only) {
    const unknown = only.filter((c) => !dest.some((d) => d.toLowerCase() === c.toLowerCase()));
    if (unknown.length > 0) {
      throw new ProjectError(`model '${context.model}': merge_update_columns names ${unknown.join(', ')}, which the model does not write; it writes ${dest.join(', ')}`);
    }
    return only.filter((c) => !key.has(c.toLowerCase()));
  }
  const skip = new Set((exclude ?? []).map((c) => c.toLowerCase()));
  return dest.filter((c) => !key.has(c.toLowerCase()) && !skip.has(c.toLowerCase()));
}

/**
 * merge: SQLite's upsert. A unique index on the key (created here if the
 * table predates it) lets `INSERT ... ON CONFLICT (key) DO UPDATE` update
 * the rows whose key exists and insert the others. incremental_predicates
 * limit which existing rows may be updated (DBT_INTERNAL_DEST is the
 * target row, DBT_INTERNAL_SOURCE or `excluded` the new one). Without a
 * unique_key dbt's MERGE matches on FALSE and inserts every new row: so
 * does this, as a plain insert.
 */
export const mergeStrategy: IncrementalStrategy = {
  name: 'merge',
  validate: (config, model) => {
    if (given(config.merge_update_columns) && given(config.merge_exclude_columns)) {
      return [{ message: `model '${model}': merge_update_columns and merge_exclude_columns cannot both be set`, at: 'merge_', hint: 'list the columns to update, or the ones to leave alone, not both' }];
    }
    return [];
  },
  // The upsert's ON CONFLICT needs a unique index on the key.
  indexes: (uniqueKey) => keyIndex(uniqueKey, true),
  deletes: true,
  keylessInsertsOnly: true,
  nullKeyConsequence: 'merge never matches them',
  statements: (context) => {
    const { model, target, newRows, uniqueKey, destColumns, predicates } = context;
    const cols = destColumns.join(', ');
    if (uniqueKey.length === 0) return [{ kind: 'exec', role: 'insert', sql: `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` }];
    const keys = uniqueKey.map(quoteIdentifier).join(', ');
    const update = mergeUpdateColumns(context);
    const where = predicates.map((p) => p.replace(/\bDBT_INTERNAL_SOURCE\./gi, `${dialect.upsertNewRow}.`));
    return [
      {
        kind: 'assert-none',
        sql: `select count(*) from (select 1 from ${newRows} where ${uniqueKey.map((k) => `${quoteIdentifier(k)} is not null`).join(' and ')} group by ${keys} having count(*) > 1)`,
        message: `model '${model}' produced more than one row for the same unique_key (${uniqueKey.join(', ')}); merge can write each key once`,
      },
      { kind: 'exec', role: 'index', sql: dialect.createIndex({ name: qualifiedName(context.targetSchema, indexName(context.targetName, uniqueKey, true)), table: quoteIdentifier(context.targetName), columns: keys, unique: true, ifNotExists: true }) },
      {
        kind: 'exec',
        role: 'upsert',
        sql: dialect.upsert({ target, targetAlias: 'DBT_INTERNAL_DEST', columns: cols, source: newRows, keys, update, predicates: where }),
      },
    ];
  },
};
