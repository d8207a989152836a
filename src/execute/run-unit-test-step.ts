import type { UnitTestNode } from '../compile/unit-test-node.js';
import { ProjectError } from '../errors/project-error.js';
import type { NodeResult } from '../state/node-result.js';
import { runUnitTest } from '../unit-tests/run-unit-test.js';
import { testStep, type TestStepContext } from './run-test-step.js';

/** A data test step's context, with the models a failed unit test blocks instead of the nodes a failed data test does. */
export interface UnitTestStepContext extends Omit<TestStepContext, 'blocked'> {
  /** build: models whose unit test failed or errored, with the test (the model is then skipped). */
  readonly blockedModels: Map<string, string>;
}

/** dbt's name for a unit test in its lines: `<model>::<test>`. */
export function describeUnitTest(test: UnitTestNode): string {
  return `${test.model}::${test.name}`;
}

/**
 * One unit test of a test or build command: skipped when an input of its
 * model failed to build (its columns cannot be read), else run; a FAIL or
 * ERROR marks its model, which build then skips, as dbt does.
 */
export function runUnitTestStep(test: UnitTestNode, context: UnitTestStepContext): NodeResult {
  const model = context.manifest.models.get(test.model);
  return testStep(
    test, `unit_test ${describeUnitTest(test)}`, (model?.dependsOn ?? []).find((p) => context.failed.has(p)), context,
    () => {
      const outcome = runUnitTest(context.db, context.manifest, test, context.run);
      return outcome.diff
        ? { status: 'fail', message: outcome.diff.rendered, exitCode: 1, failures: 1, compiledCode: outcome.sql, unitTestDiff: { actual: outcome.diff.actual, expected: outcome.diff.expected } }
        : { status: 'pass', message: null, exitCode: 0, failures: 0, compiledCode: outcome.sql };
    },
    // dbt's wording for a unit test that cannot run.
    (error) => `An error occurred during execution of unit test '${test.name}'. There may be an error in the unit test definition: check the data types.\n  ${error instanceof ProjectError ? error.format() : error.message}`,
    () => context.blockedModels.set(test.modelId, test.name),
  );
}
