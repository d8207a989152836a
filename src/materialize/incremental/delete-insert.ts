import { keySql } from '../key-sql.js';
import { keyIndex, type IncrementalStrategy } from './incremental-strategy.js';

/**
 * delete+insert: delete target rows whose key tuple is among the new rows
 * (and match every incremental predicate, which may name the target
 * DBT_INTERNAL_DEST as in dbt), then insert the new rows.
 */
export const deleteInsertStrategy: IncrementalStrategy = {
  name: 'delete+insert',
  // Keyless, it only appends (dbt's trap, kept: the plan notes it).
  validate: () => [],
  indexes: (uniqueKey) => keyIndex(uniqueKey),
  deletes: true,
  keylessInsertsOnly: true,
  nullKeyConsequence: 'delete+insert never deletes them',
  statements: ({ target, newRows, uniqueKey, destColumns, predicates }) => {
    const cols = destColumns.join(', ');
    const insert = { kind: 'exec', role: 'insert', sql: `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` } as const;
    if (uniqueKey.length === 0) return [insert];
    const keys = uniqueKey.map(keySql);
    const tuple = keys.length === 1 ? keys[0]! : `(${keys.join(', ')})`;
    const where = [`${tuple} in (select distinct ${keys.join(', ')} from ${newRows})`, ...predicates.map((p) => `(${p})`)];
    return [
      { kind: 'exec', role: 'delete', sql: `delete from ${target}${predicates.length > 0 ? ' as DBT_INTERNAL_DEST' : ''}\nwhere ${where.join('\n  and ')}` },
      insert,
    ];
  },
};
