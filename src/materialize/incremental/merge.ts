import { isKeyExpression } from '../../config/key-expression.js';
import { dialect } from '../../engine/current-engine.js';
import { qualifiedName, quoteIdentifier } from '../../engine/quote-identifier.js';
import { ProjectError } from '../../errors/project-error.js';
import { indexName } from '../staging-names.js';
import { scratchTableName } from '../../project/reserved-names.js';
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
 * merge, with dbt's MERGE semantics: a new row whose key (and every
 * incremental_predicates entry, DBT_INTERNAL_DEST the existing row and
 * DBT_INTERNAL_SOURCE the new one) matches an existing row updates it
 * (merge_update_columns, or all but merge_exclude_columns); every other new
 * row is inserted, two with one new key included. An existing row matched
 * by two new rows is refused, as a warehouse's MERGE refuses it. Without a
 * unique_key dbt's MERGE matches on FALSE and inserts every new row: so does
 * this, as a plain insert. The key's index (not unique: the table may hold a
 * key twice, as dbt's may) makes the match a seek.
 */
export const mergeStrategy: IncrementalStrategy = {
  name: 'merge',
  validate: (config, model) => {
    if (given(config.merge_update_columns) && given(config.merge_exclude_columns)) {
      return [{ message: `model '${model}': merge_update_columns and merge_exclude_columns cannot both be set`, at: 'merge_', hint: 'list the columns to update, or the ones to leave alone, not both' }];
    }
    return [];
  },
  indexes: (uniqueKey) => keyIndex(uniqueKey),
  deletes: true,
  keylessInsertsOnly: true,
  nullKeyConsequence: 'merge never matches them',
  statements: (context) => {
    const { model, target, newRows, uniqueKey, destColumns, predicates } = context;
    const cols = destColumns.join(', ');
    if (uniqueKey.length === 0) return [{ kind: 'exec', role: 'insert', sql: `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` }];
    // dbt's MERGE prefixes each key with the relation's alias: an expression key cannot be matched that way.
    const expression = uniqueKey.find(isKeyExpression);
    if (expression !== undefined) {
      return [{ kind: 'fail', message: `model '${model}': merge matches on unique_key columns, and '${expression}' is an expression (dbt's merge would write DBT_INTERNAL_SOURCE.${expression}); use delete+insert, or add the expression as a column and key on it` }];
    }
    const keys = uniqueKey.map(quoteIdentifier);
    const matchTable = scratchTableName(context.targetName, 'match');
    const merge = dialect.merge({ target, source: newRows, matchTable, keys, columns: destColumns, update: mergeUpdateColumns(context), predicates });
    const refusal = `model '${model}' produced more than one row for an existing unique_key (${uniqueKey.join(', ')}); a MERGE can update each existing row from one new row only`;
    const index = [
      // A table built before merge's index stopped being unique carries the unique one: it would refuse a key twice.
      { kind: 'exec', role: 'index', sql: dialect.dropIndex(qualifiedName(context.targetSchema, indexName(context.targetName, uniqueKey, true)), { ifExists: true }) },
      { kind: 'exec', role: 'index', sql: dialect.createIndex({ name: qualifiedName(context.targetSchema, indexName(context.targetName, uniqueKey, false)), table: quoteIdentifier(context.targetName), columns: keys.join(', '), ifNotExists: true }) },
    ] as const;
    if (merge.kind === 'native') return [...index, { kind: 'exec', role: 'upsert', sql: merge.sql, doubleMatchRefusal: refusal }];
    return [
      ...index,
      { kind: 'exec', role: 'drop', sql: dialect.dropRelation('table', dialect.tempRelation(matchTable), { ifExists: true }) },
      { kind: 'exec', role: 'stage', sql: merge.match },
      { kind: 'assert-none', sql: merge.doubleMatch, message: refusal },
      ...(merge.update ? [{ kind: 'exec', role: 'upsert', sql: merge.update } as const] : []),
      { kind: 'exec', role: 'insert', sql: merge.insert },
      { kind: 'exec', role: 'drop', sql: dialect.dropRelation('table', dialect.tempRelation(matchTable)) },
    ];
  },
};
