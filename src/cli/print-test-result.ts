import type { NodeResult } from '../state/node-result.js';
import { colors } from './terminal.js';

/** The text and bracketed status of a data test's (or unit test's: `name` is then `model::test`) result line, as dbt prints them. */
export function testResultLine(r: NodeResult, name = r.name): { text: string; status: string } {
  const time = `in ${r.executionTime.toFixed(2)}s`;
  switch (r.status) {
    case 'pass':
      return { text: `PASS ${name}`, status: `${colors.green('PASS')} ${time}` };
    case 'warn':
      return { text: `WARN ${r.failures ?? 0} ${name}`, status: `${colors.yellow(`WARN ${r.failures ?? 0}`)} ${time}` };
    case 'fail':
      return { text: `FAIL ${r.failures ?? 0} ${name}`, status: `${colors.red(`FAIL ${r.failures ?? 0}`)} ${time}` };
    case 'skipped':
      return { text: `SKIP ${r.resourceType === 'unit_test' ? 'unit_test' : 'test'} ${name}`, status: colors.yellow('SKIP') };
    default:
      return { text: `ERROR ${name}`, status: `${colors.red('ERROR')} ${time}` };
  }
}

/** Where a failed test's SQL is and, with store_failures, how to see its failing rows. */
export function testFailureHints(r: NodeResult, compiledPath: string | undefined): string[] {
  const out: string[] = [];
  if (compiledPath) out.push('', `compiled code at ${compiledPath}`);
  if (r.storedFailures) out.push('', 'See test failures:', '-'.repeat(60), `select * from ${r.storedFailures}`, '-'.repeat(60));
  return out;
}
