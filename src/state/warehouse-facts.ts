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
    relationKind: (alias) => relationKind(db, alias),
    columns: (alias) => relationColumns(db, alias),
    indexes: (alias) => relationIndexes(db, alias),
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
