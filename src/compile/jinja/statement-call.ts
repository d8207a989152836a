import { splitKeywordArgs } from '../keyword-args.js';
import type { RenderState } from '../render-state.js';
import { AgateTable } from './agate-table.js';
import { isSafeString } from './nunjucks-internals.js';
import { macroReturn } from './return-value.js';
import { executeQuery, type QueryResult } from './run-query.js';

/**
 * dbt's `{% call statement('name', fetch_result=True) %} sql {% endcall %}`
 * and `load_result('name')`, plus `run_query(sql)` built on them. Nothing runs
 * while `execute` is false (the capture pass): run_query returns none.
 */
export function statementFunctions(state: RenderState): Record<string, unknown> {
  const results = new Map<string, QueryResult | null>();
  const run = (sql: string): QueryResult | null => {
    if (!state.execute || !state.db) return null;
    return executeQuery(state.db, sql, (text) => state.log(text));
  };
  return {
    run_query: (sql: unknown) => run(String(sql))?.table ?? null,
    statement: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywordArgs(args);
      const name = String(positional[0] ?? keywords.name ?? 'statement');
      const fetch = Boolean(positional[1] ?? keywords.fetch_result ?? false);
      const caller = keywords.caller as (() => unknown) | undefined;
      if (!state.execute || !caller) return '';
      const body = caller();
      // A return() inside the block ends the macro around the call, as in dbt (the caller's own function caught it).
      if (!isSafeString(body)) macroReturn(body);
      const result = run(String(body));
      // Without fetch_result dbt keeps only the response.
      results.set(name, result && (fetch ? result : { ...result, data: [], table: new AgateTable([], []) }));
      return '';
    },
    load_result: (name: unknown) => results.get(String(name)) ?? null,
  };
}
