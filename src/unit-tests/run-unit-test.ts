import type { Warehouse } from '../engine/open-warehouse.js';
import type { RunContext } from '../invocation/run-context.js';
import type { Manifest } from '../compile/manifest.js';
import type { UnitTestNode } from '../compile/unit-test-node.js';
import { renderUnitTest } from './render-unit-test.js';
import { comparableCell, unitTestDiff, type Cell, type UnitTestDiff } from './unit-test-diff.js';

export interface UnitTestOutcome {
  readonly status: 'pass' | 'fail';
  /** dbt's unit test query (target/compiled, run_results' compiled_code). */
  readonly sql: string;
  readonly diff?: UnitTestDiff;
}

/**
 * Runs one unit test: its query reads only fixture rows (and the inputs'
 * column types), so no table of the warehouse is written; pass when the
 * model's rows equal the expected ones, in any order.
 */
export function runUnitTest(db: Warehouse, manifest: Manifest, test: UnitTestNode, run: RunContext, options: { readonly colors?: boolean } = {}): UnitTestOutcome {
  const rendered = renderUnitTest(db, manifest, test, run);
  const rows = db.prepare(rendered.sql).rows();
  const actual: Cell[][] = [];
  const expected: Cell[][] = [];
  const width = rendered.columns.length;
  for (const row of rows) (row[width] === 'actual' ? actual : expected).push(row.slice(0, width).map(comparableCell));
  const diff = unitTestDiff(rendered.columns, actual, expected, options);
  return diff ? { status: 'fail', sql: rendered.sql, diff } : { status: 'pass', sql: rendered.sql };
}
