import type { Warehouse } from '../../engine/open-warehouse.js';
import { AgateTable } from './agate-table.js';

export interface QueryResult {
  readonly response: { readonly _message: string; readonly code: string; readonly rows_affected: number };
  readonly data: unknown[][];
  readonly table: AgateTable;
}

/** Run one statement synchronously on the warehouse; rows as an agate-like table (its print_table writes to `printer`). */
export function executeQuery(db: Warehouse, sql: string, printer?: (text: string) => void): QueryResult {
  const statement = db.prepare(sql);
  if (!statement.returnsRows) {
    const info = statement.run();
    const code = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'OK';
    return { response: { _message: `${code} ${info.changes}`, code, rows_affected: info.changes }, data: [], table: new AgateTable([], []) };
  }
  const names = statement.columnNames();
  const data = statement.rows();
  return { response: { _message: `SELECT ${data.length}`, code: 'SELECT', rows_affected: data.length }, data, table: new AgateTable(names, data, printer) };
}
