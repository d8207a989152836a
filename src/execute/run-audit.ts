import type { Warehouse } from '../engine/open-warehouse.js';
import { ProjectError } from '../errors/project-error.js';
import type { AuditStatement } from '../materialize/planned-statement.js';
import type { StatementOutcome, StatementsToRun } from './run-statements.js';

function describeRows(db: Warehouse, sql: string): string[] {
  const rows = db.prepare(sql).all() as Record<string, unknown>[];
  return rows.map((r) => Object.entries(r).map(([k, v]) => `${k}=${v === null ? 'NULL' : String(v)}`).join(', '));
}

/**
 * Run one audit inside the open publish transaction. A failing audit of
 * severity error throws (the caller rolls the publish back, so the table
 * stays exactly as it was) with the failing rows in the message; a warning
 * is kept on the outcome and the publish goes on.
 */
export function runAudit(db: Warehouse, plan: StatementsToRun, audit: AuditStatement, outcome: StatementOutcome): void {
  const row = db.prepare(audit.sql).get() as { failures: unknown; should_warn: unknown; should_error: unknown };
  const failures = Number(row.failures ?? 0);
  const results = `${failures} failing row${failures === 1 ? '' : 's'}`;
  const fails = audit.severity === 'error' && String(row.should_error) === 'true';
  const warnFails = !fails && audit.warnError === true && String(row.should_warn) === 'true';
  if (fails || warnFails) {
    const sample = describeRows(db, audit.failingRowsSql);
    const rule = fails ? `configured to fail if ${audit.errorIf}` : `configured to warn if ${audit.warnIf}, a failure under --warn-error`;
    throw new ProjectError(
      [
        `audit ${audit.test} failed before publish: ${results} (${rule}); nothing was published, ${plan.relation} is exactly as it was`,
        `failing rows${failures > sample.length ? ` (first ${sample.length})` : ''}:`,
        ...sample.map((s) => `  ${s}`),
      ].join('\n'),
      { exitCode: 1 },
    );
  }
  if (String(row.should_warn) === 'true') {
    (outcome.auditWarnings ??= []).push(`audit ${audit.test}: ${results} (configured to warn if ${audit.warnIf}); published anyway`);
  }
}
