import { dialect } from '../engine/current-engine.js';
import { scratchTableName } from '../project/reserved-names.js';

/** The table a full build is written to before it is swapped in. */
export function stagedTableName(alias: string): string {
  return scratchTableName(alias, 'tmp');
}

/** The temp table holding an incremental run's new rows (unqualified). */
export function newRowsName(alias: string): string {
  return scratchTableName(alias, 'new');
}

/** The temp table holding an incremental run's new rows, qualified. */
export function newRowsTable(alias: string): string {
  return dialect.tempRelation(newRowsName(alias));
}

export function indexName(table: string, columns: readonly string[], unique: boolean): string {
  return `${table}__${unique ? 'uidx' : 'idx'}__${columns.join('__')}`;
}
