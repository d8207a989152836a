/** A data test: a generic test from a properties file, or a singular test file. */
export interface TestNode {
  readonly resourceType: 'test';
  /** test.<project>.<name>[.<hash>] */
  readonly uniqueId: string;
  /** The test's name (dbt's compiled name: `unique_orders_order_id`). */
  readonly name: string;
  readonly fqn: readonly string[];
  readonly testType: 'generic' | 'singular';
  /** Generic: the test (`unique`, `accepted_values`, a project's `{% test %}`); singular: the file stem. */
  readonly testName: string;
  /** The model, seed or source a generic test is declared on. */
  readonly attachedTo?: string;
  readonly columnName?: string;
  /** The test's arguments besides model and column_name (unrendered, as in the yml). */
  readonly args: Readonly<Record<string, unknown>>;
  /** Resolved config: severity, warn_if, error_if, where, limit, store_failures, audit, tags, ... */
  readonly config: Readonly<Record<string, unknown>>;
  /** The yml file declaring a generic test, or the singular test's .sql file. */
  readonly path: string;
  /** The declaring line, looked up when asked (an error message): finding it may parse the yml file again with positions, which a load of thousands of tests should not pay for. */
  readonly lineOf?: () => number | undefined;
  /** The template rendered to get the failing-rows query. */
  readonly rawSql: string;
  readonly refs: readonly string[];
  readonly sources: readonly (readonly [string, string])[];
  readonly dependsOn: readonly string[];
  readonly description?: string;
}

/** dbt's defaults for test configs. */
export const TEST_CONFIG_DEFAULTS: Readonly<Record<string, unknown>> = {
  severity: 'error',
  warn_if: '!= 0',
  error_if: '!= 0',
  fail_calc: 'count(*)',
};

/** Config keys a test entry may carry at its top level (dbt's legacy form) as well as under config:. */
export const TEST_CONFIG_KEYS: readonly string[] = [
  'severity', 'tags', 'enabled', 'where', 'limit', 'warn_if', 'error_if', 'store_failures', 'store_failures_as',
  'fail_calc', 'meta', 'alias', 'schema', 'database', 'audit',
];
