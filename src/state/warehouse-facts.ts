import { describeSelect } from '../engine/describe-select.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { relationIndexes } from '../engine/relation-indexes.js';
import type { WarehouseFacts } from '../plan/warehouse-facts.js';
import { builtBatches } from './built-batches.js';

/** Planning's view of a warehouse connection (see WarehouseFacts). */
export function warehouseFacts(db: Warehouse): WarehouseFacts {
  // One plan asks for a table's columns more than once (its insert columns, its schema change): read once per facts.
  const columns = new Map<string, ReturnType<typeof relationColumns>>();
  return {
    db,
    relationKind: (alias, schema) => relationKind(db, alias, schema),
    columns: (alias, schema) => {
      const key = `${schema ?? ''}\u0000${alias}`;
      let known = columns.get(key);
      if (!known) columns.set(key, (known = relationColumns(db, alias, { schema })));
      return known;
    },
    indexes: (alias, schema) => relationIndexes(db, alias, schema),
    selectColumns: (sql) => {
      try {
        return describeSelect(db, sql);
      } catch {
        return undefined;
      }
    },
    builtBatches: (model) => builtBatches(db, model),
  };
}
