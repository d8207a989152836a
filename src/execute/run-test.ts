import type { Manifest } from '../compile/manifest.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import { quoteIdentifier } from '../engine/quote-identifier.js';
import { dialect } from '../engine/current-engine.js';
import { renderTest } from '../data-tests/render-test.js';
import { failingRowsQuery, testQuery, testStatus, testThresholds, type TestStatus } from '../data-tests/test-query.js';
import type { TestRenderOptions } from '../data-tests/test-render-state.js';
import type { TestNode } from '../compile/test-node.js';

export interface TestRun {
  readonly status: TestStatus;
  readonly failures: number;
  readonly message: string | null;
  /** The test's SELECT of failing rows (target/compiled). */
  readonly sql: string;
  /** The table the failing rows were stored in (store_failures). */
  readonly storedFailures?: string;
}

/** The table store_failures writes: `<schema>__<alias or name>` in the warehouse (SQLite has one schema). */
export function failuresTable(test: TestNode): string {
  const schema = typeof test.config.schema === 'string' ? test.config.schema : 'dbt_test__audit';
  const alias = typeof test.config.alias === 'string' ? test.config.alias : test.name;
  return `${schema}__${alias}`;
}

/**
 * Run one data test: render it, run dbt's test query, and with
 * store_failures (config, or the --store-failures flag) replace the table of
 * its failing rows in one transaction.
 */
export function runTest(db: Warehouse, manifest: Manifest, test: TestNode, options: TestRenderOptions): TestRun {
  // config() in the test's own SQL (dbt_utils' equal_rowcount sets fail_calc) yields to the yml and project configs, as in dbt.
  const macroConfig: Record<string, unknown> = {};
  const sql = renderTest(manifest, test, { ...options, capturedConfig: macroConfig });
  const thresholds = testThresholds(test.name, { ...macroConfig, ...test.config });
  const row = db.prepare(testQuery(sql, thresholds)).get() as { failures: unknown; should_warn: unknown; should_error: unknown };
  const outcome = testStatus(row, thresholds, options.run?.warnError);
  const store = test.config.store_failures ?? options.run?.storeFailures ?? false;
  if (store !== true) return { ...outcome, sql };
  const table = failuresTable(test);
  db.transaction(() => {
    db.exec(dialect.dropRelation('table', quoteIdentifier(table), { ifExists: true }));
    db.exec(dialect.createTableAs(quoteIdentifier(table), failingRowsQuery(sql, thresholds.limit)));
  });
  return { ...outcome, sql, storedFailures: table };
}
