import { DBT_VERSION } from '../../invocation/tool-version.js';
import type { RenderState } from '../render-state.js';
import { adapterContext } from './adapter-context.js';
import { datetimeModule, toPyDateTime } from './py-datetime.js';
import { itertoolsModule } from './python-itertools-module.js';
import { pytzModule } from './python-pytz-module.js';
import { reModule } from './python-re-module.js';
import { statementFunctions } from './statement-call.js';

/**
 * The parts of dbt's Jinja context that need the warehouse or Python's
 * modules: run_query, statement/load_result, adapter, api, modules (datetime, re, itertools, pytz)
 * and run_started_at as a datetime (dbt's own macros, `dbt.type_string()`, are the global project's).
 * Added on top of contextFunctions().
 */
export function dbtRuntimeContext(state: RenderState, lookupGlobal: (name: string) => unknown): Record<string, unknown> {
  return {
    ...statementFunctions(state),
    ...adapterContext(state, lookupGlobal),
    modules: pythonModules(),
    run_started_at: toPyDateTime(state.run.startedAt),
    dbt_version: DBT_VERSION,
    thread_id: 'Thread-1',
    should_store_failures: () => Boolean(state.config?.store_failures),
  };
}

let modules: Record<string, unknown> | undefined;

/**
 * dbt's `modules`, one object for the process, each module built the first
 * time a template reads it (pytz lists every zone Intl knows: a render that
 * never reads `modules.pytz` never pays for it).
 */
function pythonModules(): Record<string, unknown> {
  if (modules) return modules;
  const builders: Record<string, () => unknown> = { datetime: datetimeModule, re: reModule, itertools: itertoolsModule, pytz: pytzModule };
  const out: Record<string, unknown> = {};
  for (const [name, build] of Object.entries(builders)) {
    let built: unknown;
    Object.defineProperty(out, name, { get: () => (built ??= build()), enumerable: true });
  }
  return (modules = out);
}
