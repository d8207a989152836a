/**
 * Ledger queries of a fixed shape, compiled by kysely once per process and
 * engine: a run writes the same few shapes (its start, each node's record,
 * its end) with new values every time, and compiling the query tree again
 * each time was about a third of the ledger's cost in a nightly run.
 *
 * The caller names the shape and passes the values in the order kysely binds
 * them; the first compile checks that order (a query whose parameters come
 * out otherwise is run as compiled, never cached), so a wrong key or order
 * can only cost the cache, never bind a value to the wrong column.
 */
import type { Compilable } from 'kysely';
import { queryEngineName } from '../engine/query-dialect.js';

export interface SqlWithParameters {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

const compiled = new Map<string, string>();

/** The SQL of `build()` for `parameters`, compiled on the first call for this shape and engine. */
export function compiledOnce(shape: string, parameters: readonly unknown[], build: () => Compilable): SqlWithParameters {
  const key = `${queryEngineName()}\u0000${shape}`;
  const sql = compiled.get(key);
  if (sql !== undefined) return { sql, parameters };
  const query = build().compile();
  if (sameValues(query.parameters, parameters)) compiled.set(key, query.sql);
  return { sql: query.sql, parameters: query.parameters };
}

/** An insert of one row into `table`: one shape per engine, table and set of columns (undefined values are left out, as kysely does). */
export function compiledInsert<R extends object>(table: string, row: R, build: (values: R) => Compilable): SqlWithParameters {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (value === undefined) continue;
    columns.push(column);
    values.push(value);
  }
  return compiledOnce(`insert into ${table} (${columns.join(', ')})`, values, () => build(row));
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]) && (value === null || typeof value !== 'object'));
}
