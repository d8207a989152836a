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

type TestLike = Parameters<typeof testStepResult>[0];
type Outcome = Partial<NodeResult> & Pick<NodeResult, 'status' | 'message' | 'exitCode'>;

/**
 * The frame every test step shares: skipped (SKIP, no START) when `upstream`
 * failed; else START, `execute` (a throw is the step's ERROR, worded by
 * `errorMessage`), then the result line. `blocks` runs on a FAIL or ERROR.
 */
export function testStep(
  test: TestLike, description: string, upstream: string | undefined, context: Pick<TestStepContext, 'index' | 'total' | 'emit'>,
  execute: () => Outcome, errorMessage: (error: Error) => string, blocks: () => void,
): NodeResult {
  const startedAt = nowIso();
  const t0 = performance.now();
  const { index, total, emit } = context;
  if (upstream) {
    const skipped = testStepResult(test, { status: 'skipped', message: `skipped because ${upstream} failed`, exitCode: 1, failures: 0 }, startedAt, t0);
    emit({ type: 'result', index, total, description, result: skipped });
    return skipped;
  }
  emit({ type: 'start', index, total, description, uniqueId: test.uniqueId });
  let out: NodeResult;
  try {
    out = testStepResult(test, execute(), startedAt, t0);
  } catch (err) {
    const error = err instanceof Error ? err : new Error(String(err));
    out = testStepResult(test, { status: 'error', message: errorMessage(error), exitCode: 1, error }, startedAt, t0);
  }
  if (out.status === 'fail' || out.status === 'error') blocks();
  emit({ type: 'result', index, total, description, result: out });
  return out;
}

/**
 * One test of a run or build: skipped when what it tests failed; else run,
 * and when it fails or errors, what it tests is marked so its descendants
 * are skipped (as dbt build does; a warning blocks nothing).
 */
export function runTestStep(test: TestNode, context: TestStepContext): NodeResult {
  return testStep(
    test, `test ${test.name}`, test.dependsOn.find((p) => context.failed.has(p)), context,
    () => {
      // log(..., info=True) in the test's SQL prints as a model's does (dbt-tests-adapter's is_type test logs its bad columns).
      const run = runTest(context.db, context.manifest, test, { db: context.db, run: context.run, log: (message) => context.emit({ type: 'log', message }) });
      return { status: run.status, message: run.message, exitCode: run.status === 'fail' ? 1 : 0, failures: run.failures, compiledCode: run.sql, storedFailures: run.storedFailures };
    },
    (error) => (error instanceof ProjectError ? error.format() : `Database Error in test ${test.name} (${test.path})\n  ${error.message}`),
    () => {
      for (const id of test.attachedTo ? [test.attachedTo] : test.dependsOn) context.blocked.add(id);
    },
  );
}
