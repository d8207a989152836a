/**
 * dbt's cross-database type macros, reached as `dbt.type_string()` and so on
 * (dbt-tests-adapter's fixtures cast with them). Each returns what dbt's
 * default implementation returns, which dbt-sqlite keeps: base Column's
 * translate_type maps only "string" (to TEXT), so the others are the names
 * asked for, and type_numeric is numeric(28,6). type_timestamp is left out:
 * SQLite gives `timestamp` NUMERIC affinity, so a cast to it turns
 * '2024-01-02 03:04:05' into 2024.
 */
export function dbtTypeMacros(): Record<string, () => string> {
  return {
    type_string: () => 'TEXT',
    type_int: () => 'integer',
    type_bigint: () => 'bigint',
    type_float: () => 'float',
    type_numeric: () => 'numeric(28,6)',
    type_boolean: () => 'boolean',
  };
}
