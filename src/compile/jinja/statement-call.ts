import { splitKeywordArgs } from '../keyword-args.js';
import type { RenderState } from '../render-state.js';
import { AgateTable } from './agate-table.js';
import { isSafeString } from './nunjucks-internals.js';
import { macroReturn } from './return-value.js';
import { executeQuery, type QueryResult } from './run-query.js';
import { refuseReservedWrites, renderedName } from '../../engine/refuse-reserved-writes.js';

/**
 * dbt's `{% call statement('name', fetch_result=True) %} sql {% endcall %}`
 * and `load_result('name')`, plus `run_query(sql)` built on them. Nothing runs
 * while `execute` is false (the capture pass): run_query returns none.
 */
export function statementFunctions(state: RenderState): Record<string, unknown> {
  const results = new Map<string, QueryResult | null>();
  const run = (sql: string, via: string): QueryResult | null => {
    if (!state.execute || !state.db) return null;
    // The project's SQL may read mini-dbt's own tables, never write them (E230).
    try {
      refuseReservedWrites(sql, `${via} in ${renderedName(state.modelName)}`);
    } catch (err) {
      // Kept on the state, the refusal is the render's message (with the template's file and line), not a JavaScript error.
      if (err instanceof Error && !state.failure) state.failure = err;
      throw err;
    }
    return executeQuery(state.db, sql, (text) => state.log(text));
  };
  return {
    run_query: (sql: unknown) => run(String(sql), 'run_query')?.table ?? null,
    statement: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywordArgs(args);
      const name = String(positional[0] ?? keywords.name ?? 'statement');
      const fetch = Boolean(positional[1] ?? keywords.fetch_result ?? false);
      const caller = keywords.caller as (() => unknown) | undefined;
      if (!state.execute || !caller) return '';
      const body = caller();
      // A return() inside the block ends the macro around the call, as in dbt (the caller's own function caught it).
      if (!isSafeString(body)) macroReturn(body);
      const result = run(String(body), `statement('${name}')`);
      // Without fetch_result dbt keeps only the response.
      results.set(name, result && (fetch ? result : { ...result, data: [], table: new AgateTable([], []) }));
      return '';
    },
    load_result: (name: unknown) => results.get(String(name)) ?? null,
  };
}
