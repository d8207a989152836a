import { nowIso } from '../clock.js';
import type { Manifest } from '../compile/manifest.js';
import type { TestNode } from '../compile/test-node.js';
import type { Warehouse } from '../engine/open-warehouse.js';
import type { RunContext } from '../invocation/run-context.js';
import { ProjectError } from '../errors/project-error.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';
import { runTest } from './run-test.js';

export interface TestStepContext {
  readonly db: Warehouse;
  readonly manifest: Manifest;
  /** The invocation (--store-failures, --warn-error, invocation_id in templates). */
  readonly run: RunContext;
  readonly index: number;
  readonly total: number;
  readonly emit: (event: RunEvent) => void;
  /** Nodes that failed or were skipped: a test of one of them is skipped. */
  readonly failed: Set<string>;
  /** Nodes whose tests failed: their descendants are skipped (the node itself stays built). */
  readonly blocked: Set<string>;
}

/** A data or unit test's result: no relation, no rows written; `fields` say how it went. */
export function testStepResult(
  test: { readonly uniqueId: string; readonly name: string; readonly path: string; readonly resourceType: 'test' | 'unit_test' },
  fields: Partial<NodeResult> & Pick<NodeResult, 'status' | 'message' | 'exitCode'>, startedAt: string, t0: number,
): NodeResult {
  return {
    uniqueId: test.uniqueId,
    name: test.name,
    resourceType: test.resourceType,
    executionTime: (performance.now() - t0) / 1000,
    startedAt,
    completedAt: nowIso(),
    adapterResponse: {},
    relationName: '',
    rowsDeleted: 0,
    rowsInserted: 0,
    partitions: [],
    asOf: null,
    path: test.path,
    ...fields,
  };
}

/**
 * One test of a run or build: skipped when what it tests failed; else run,
 * and when it fails or errors, what it tests is marked so its descendants
 * are skipped (as dbt build does; a warning blocks nothing).
 */
export function runTestStep(test: TestNode, context: TestStepContext): NodeResult {
  const startedAt = nowIso();
  const t0 = performance.now();
  const description = `test ${test.name}`;
  const { index, total, emit } = context;
  const upstream = test.dependsOn.find((p) => context.failed.has(p));
  if (upstream) {
    const skipped = testStepResult(test, { status: 'skipped', message: `skipped because ${upstream} failed`, exitCode: 1, failures: 0 }, startedAt, t0);
    emit({ type: 'result', index, total, description, result: skipped });
    return skipped;
  }
  emit({ type: 'start', index, total, description, uniqueId: test.uniqueId });
  let out: NodeResult;
  try {
    const run = runTest(context.db, context.manifest, test, { db: context.db, run: context.run });
    out = testStepResult(test, { status: run.status, message: run.message, exitCode: run.status === 'fail' ? 1 : 0, failures: run.failures, compiledCode: run.sql, storedFailures: run.storedFailures }, startedAt, t0);
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    const message = error instanceof ProjectError ? error.format() : `Database Error in test ${test.name} (${test.path})\n  ${error.message}`;
    out = testStepResult(test, { status: 'error', message, exitCode: 1, error }, startedAt, t0);
  }
  if (out.status === 'fail' || out.status === 'error') {
    for (const id of test.attachedTo ? [test.attachedTo] : test.dependsOn) context.blocked.add(id);
  }
  emit({ type: 'result', index, total, description, result: out });
  return out;
}
