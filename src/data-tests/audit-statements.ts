import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { AuditStatement } from '../materialize/planned-statement.js';
import { renderTest } from './render-test.js';
import { failingRowsQuery, testQuery, testThresholds } from './test-query.js';
import type { TestRenderOptions } from './test-render-state.js';
import type { TestNode } from '../compile/test-node.js';

/** The tests that audit a model's publish: `audit: true` ones, and all of them during a backfill. */
export function auditTests(manifest: Manifest, node: ModelNode, mode: string): TestNode[] {
  return [...manifest.tests.values()].filter((t) => t.attachedTo === node.uniqueId && (t.config.audit === true || mode === 'backfill'));
}

/** One audit statement per auditing test, rendered against the model's relation. */
export function auditStatements(manifest: Manifest, node: ModelNode, mode: string, options: TestRenderOptions): AuditStatement[] {
  return auditTests(manifest, node, mode).map((test) => {
    const thresholds = testThresholds(test.name, test.config);
    // Failing rows with every column (as when storing failures), for the message.
    const sql = renderTest(manifest, { ...test, config: { ...test.config, store_failures: true } }, options);
    return {
      kind: 'audit',
      test: test.name,
      severity: thresholds.severity,
      sql: testQuery(sql, thresholds),
      failingRowsSql: `${failingRowsQuery(sql, thresholds.limit)}\nlimit 5`,
      warnIf: thresholds.warnIf,
      errorIf: thresholds.errorIf,
      ...(options.run?.warnError ? { warnError: true } : {}),
    };
  });
}
