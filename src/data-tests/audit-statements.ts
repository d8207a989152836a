import type { Manifest, ModelNode } from '../compile/manifest.js';
import type { AuditStatement } from '../materialize/planned-statement.js';
import { renderTest } from './render-test.js';
import { failingRowsQuery, testQuery, testThresholds } from './test-query.js';
import type { TestRenderOptions } from './test-render-state.js';
import type { TestNode } from '../compile/test-node.js';

/** The tests of each model (attachedTo), indexed once per manifest: a plan asks for every model's. */
const byModel = new WeakMap<Manifest['tests'], { readonly size: number; readonly index: Map<string, TestNode[]> }>();

function testsOf(manifest: Manifest, uniqueId: string): readonly TestNode[] {
  const known = byModel.get(manifest.tests);
  // (a map still being filled, as parsing fills it, is indexed again)
  let index = known?.size === manifest.tests.size ? known.index : undefined;
  if (!index) {
    index = new Map();
    for (const test of manifest.tests.values()) {
      if (test.attachedTo === undefined) continue;
      const list = index.get(test.attachedTo);
      if (list) list.push(test);
      else index.set(test.attachedTo, [test]);
    }
    byModel.set(manifest.tests, { size: manifest.tests.size, index });
  }
  return index.get(uniqueId) ?? [];
}

/** The tests that audit a model's publish: `audit: true` ones, and all of them during a backfill. */
export function auditTests(manifest: Manifest, node: ModelNode, mode: string): TestNode[] {
  return testsOf(manifest, node.uniqueId).filter((t) => t.config.audit === true || mode === 'backfill');
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
