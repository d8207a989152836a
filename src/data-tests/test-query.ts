import { ProjectError } from '../errors/project-error.js';
import { TEST_CONFIG_DEFAULTS } from '../compile/test-node.js';

const CONDITION = /^\s*(==|=|!=|<>|>=|<=|>|<)\s*(-?\d+(?:\.\d+)?)\s*$/;

export interface TestThresholds {
  readonly severity: 'error' | 'warn';
  readonly warnIf: string;
  readonly errorIf: string;
  readonly failCalc: string;
  readonly limit?: number;
}

/** A test's severity, warn_if, error_if, fail_calc and limit, checked (they are pasted into SQL). */
export function testThresholds(name: string, config: Readonly<Record<string, unknown>>): TestThresholds {
  const merged = { ...TEST_CONFIG_DEFAULTS, ...Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined && v !== null)) };
  const severity = String(merged.severity).toLowerCase();
  if (severity !== 'error' && severity !== 'warn') {
    throw new ProjectError(`test '${name}': severity must be 'error' or 'warn', got '${String(merged.severity)}'`);
  }
  const condition = (key: 'warn_if' | 'error_if'): string => {
    const m = CONDITION.exec(String(merged[key]));
    if (!m) throw new ProjectError(`test '${name}': ${key} must be a comparison with a number like '!= 0' or '>10', got '${String(merged[key])}'`);
    return `${m[1]} ${m[2]}`;
  };
  const failCalc = String(merged.fail_calc);
  if (failCalc.includes(';')) throw new ProjectError(`test '${name}': fail_calc must be one SQL expression`);
  let limit: number | undefined;
  if (merged.limit !== undefined) {
    limit = Number(merged.limit);
    if (!Number.isInteger(limit) || limit < 0) throw new ProjectError(`test '${name}': limit must be a whole number, got '${String(merged.limit)}'`);
  }
  return { severity, warnIf: condition('warn_if'), errorIf: condition('error_if'), failCalc, limit };
}

const body = (sql: string, limit?: number) => `${sql.trim().replace(/;\s*$/, '')}${limit === undefined ? '' : `\nlimit ${limit}`}`;

/** dbt's get_test_sql: one row of failures, should_warn and should_error ('true'/'false'). */
export function testQuery(sql: string, t: TestThresholds): string {
  return [
    'select',
    `    ${t.failCalc} as failures,`,
    `    case when ${t.failCalc} ${t.warnIf} then 'true' else 'false' end as should_warn,`,
    `    case when ${t.failCalc} ${t.errorIf} then 'true' else 'false' end as should_error`,
    'from (',
    body(sql, t.limit),
    ') dbt_internal_test',
  ].join('\n');
}

/** The failing rows themselves (what store_failures keeps). */
export function failingRowsQuery(sql: string, limit?: number): string {
  return `select * from (\n${body(sql, limit)}\n) dbt_internal_test`;
}

export type TestStatus = 'pass' | 'warn' | 'fail';

/** dbt's status from the test query's row, with the message dbt prints and the failures run_results.json records. */
export function testStatus(row: { failures: unknown; should_warn: unknown; should_error: unknown }, t: TestThresholds, warnError = false): { status: TestStatus; failures: number; message: string | null } {
  const failures = Number(row.failures ?? 0);
  const results = `Got ${failures} result${failures === 1 ? '' : 's'}`;
  if (t.severity === 'error' && String(row.should_error) === 'true') return { status: 'fail', failures, message: `${results}, configured to fail if ${t.errorIf}` };
  if (String(row.should_warn) === 'true') {
    // --warn-error: what would warn fails, as in dbt.
    if (warnError) return { status: 'fail', failures, message: `${results}, configured to warn if ${t.warnIf} (a failure under --warn-error)` };
    return { status: 'warn', failures, message: `${results}, configured to warn if ${t.warnIf}` };
  }
  // As dbt: a test under its thresholds passes with 0 failures, whatever rows its query found.
  return { status: 'pass', failures: 0, message: null };
}
