import type { MacroFile } from '../../project/project.js';
import { DBT_DATE_SHIMS } from './dbt-date-shims.js';
import { DBT_UTILS_SHIMS } from './dbt-utils-shims.js';

/** The package mini-dbt's shims belong to. */
export const SHIM_PACKAGE = 'mini_dbt_sqlite';

/** The namespace each shim file serves, and its text. */
const SHIM_FILES: readonly { readonly namespace: string; readonly source: string }[] = [
  { namespace: 'dbt_utils', source: DBT_UTILS_SHIMS },
  { namespace: 'dbt_date', source: DBT_DATE_SHIMS },
];

/**
 * mini-dbt's SQLite implementations of package macros (`sqlite__<name>`)
 * whose default SQL SQLite cannot run, as a shim package would ship them
 * (dbt's spark_utils / tsql_utils pattern). adapter.dispatch('<name>',
 * '<namespace>') should try `mini_dbt_sqlite.sqlite__<name>` when the
 * packages searched have no `sqlite__<name>` of their own, before their
 * `default__<name>` (see SHIMMED_MACROS).
 */
export const ADAPTER_SHIM_MACROS: readonly MacroFile[] = SHIM_FILES.map(({ namespace, source }) => {
  const path = `${SHIM_PACKAGE}/macros/${namespace}_sqlite.sql`;
  return { path, absPath: path, source, package: SHIM_PACKAGE };
});

/**
 * For each namespace, the macro names (without `sqlite__`) a shim serves:
 * dispatch in namespace `dbt_utils` of `union_relations` may use
 * `sqlite__union_relations`; no other namespace's dispatch does.
 */
export const SHIMMED_MACROS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  SHIM_FILES.map(({ namespace, source }) => [namespace, [...source.matchAll(/\{%-?\s*macro\s+sqlite__([A-Za-z0-9_]+)\s*\(/g)].map((m) => m[1]!)]),
);
