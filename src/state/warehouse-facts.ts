import { describeSelect } from '../engine/describe-select.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { relationColumns, relationKind } from '../engine/relation-kind.js';
import { relationIndexes } from '../engine/relation-indexes.js';
import type { WarehouseFacts } from '../plan/warehouse-facts.js';
import { builtBatches } from './built-batches.js';

/** Planning's view of a warehouse connection (see WarehouseFacts). */
export function warehouseFacts(db: Warehouse): WarehouseFacts {
  return {
    db,
    relationKind: (alias, schema) => relationKind(db, alias, schema),
    columns: (alias, schema) => relationColumns(db, alias, { schema }),
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
