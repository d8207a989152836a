import type { MacroFile } from '../../project/project.js';
import { DBT_DATE_SHIMS } from './dbt-date-shims.js';
import { DBT_UTILS_SHIMS } from './dbt-utils-shims.js';

const file = (name: string, source: string): MacroFile => {
  const path = `mini_dbt_sqlite/macros/${name}.sql`;
  return { path, absPath: path, source, package: 'mini_dbt_sqlite' };
};

/**
 * mini-dbt's SQLite implementations of package macros (`sqlite__<name>`)
 * whose default SQL SQLite cannot run, as a shim package would ship them
 * (dbt's spark_utils / tsql_utils pattern). adapter.dispatch looks here
 * for `sqlite__<name>` when the packages searched have none of their own,
 * before falling back to their `default__<name>`.
 */
export const ADAPTER_SHIM_MACROS: readonly MacroFile[] = [
  file('dbt_utils_sqlite', DBT_UTILS_SHIMS),
  file('dbt_date_sqlite', DBT_DATE_SHIMS),
];
