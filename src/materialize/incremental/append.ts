import { keyIndex, type IncrementalStrategy } from './incremental-strategy.js';

/** append: insert the new rows; never deletes, so late versions double-count. */
export const appendStrategy: IncrementalStrategy = {
  name: 'append',
  validate: () => [],
  indexes: (uniqueKey) => keyIndex(uniqueKey),
  deletes: false,
  statements: ({ target, newRows, destColumns }) => {
    const cols = destColumns.join(', ');
    return [{ kind: 'exec', role: 'insert', sql: `insert into ${target} (${cols})\nselect ${cols} from ${newRows}` }];
  },
};
