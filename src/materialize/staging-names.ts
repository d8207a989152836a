import { quoteIdentifier } from '../db/quote-identifier.js';

/** The table a full build is written to before it is swapped in. */
export function stagedTableName(alias: string): string {
  return `${alias}__mini_dbt_tmp`;
}

/** The temp table holding an incremental run's new rows, qualified. */
export function newRowsTable(alias: string): string {
  return `temp.${quoteIdentifier(`${alias}__mini_dbt_new`)}`;
}

export function indexName(table: string, columns: readonly string[], unique: boolean): string {
  return `${table}__${unique ? 'uidx' : 'idx'}__${columns.join('__')}`;
}
