import { quoteIdentifier } from '../../engine/quote-identifier.js';
import { partitionColumnOf } from '../../config/model-config.js';
import { keyIndex, type IncrementalStrategy } from './incremental-strategy.js';

/**
 * insert_overwrite: replace every partition (value of partition_by) present
 * in the new rows: delete those partitions from the target (where every
 * incremental predicate holds), then insert the new rows. A partition the
 * new rows no longer contain is left as it was.
 */
export const insertOverwriteStrategy: IncrementalStrategy = {
  name: 'insert_overwrite',
  validate: (config, model) => (partitionColumnOf(config) === undefined
    ? [{ message: `model '${model}': incremental_strategy 'insert_overwrite' needs partition_by (the column whose partitions are replaced)`, at: 'insert_overwrite' }]
    : []),
  indexes: (uniqueKey) => keyIndex(uniqueKey),
  deletes: true,
  statements: ({ model, target, newRows, destColumns, predicates, partitionBy }) => {
    if (!partitionBy) throw new Error(`internal: model '${model}' reached insert_overwrite without the partition_by its validation requires`);
    const p = quoteIdentifier(partitionBy);
    const cols = destColumns.join(', ');
    const where = [`${p} in (select distinct ${p} from ${newRows})`, ...predicates.map((x) => `(${x})`)];
    return [
      {
        kind: 'assert-none',
        sql: `select count(*) from ${newRows} where ${p} is null`,
        message: `model '${model}' produced NULL in partition_by column '${partitionBy}'`,
      },
      { kind: 'exec', role: 'delete', sql: `delete from ${target}${predicates.length > 0 ? ' as DBT_INTERNAL_DEST' : ''}\nwhere ${where.join('\n  and ')}` },
      { kind: 'exec', role: 'insert', sql: `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` },
    ];
  },
};
