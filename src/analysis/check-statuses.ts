export interface BackfillCheck {
  /** 'order_date not null', 'order_date within 2026-09-03..2026-09-04', 'audit unique_daily_revenue_order_date'. */
  readonly name: string;
  readonly status: 'pass' | 'warn' | 'fail' | 'not run' | 'planned';
  /** A warning audit: what it found. */
  readonly detail?: string;
}

/**
 * The outcome of each check and audit of one publish, in the order they
 * run (staged-row checks, then audits), from how the publish ended: all
 * passed when it committed (an audit of severity warn that found rows is
 * 'warn'); otherwise the one whose message the error carries failed, those
 * before it passed and those after it did not run. When the error names
 * none of them (the SELECT or a write failed), none is claimed as passed.
 */
export function checkStatuses(checks: readonly string[], audits: readonly string[], failure: string | null, auditWarnings: readonly string[]): BackfillCheck[] {
  const all = [...checks.map((name) => ({ name, audit: undefined as string | undefined })), ...audits.map((test) => ({ name: `audit ${test}`, audit: test }))];
  if (failure === null) {
    return all.map(({ name, audit }) => {
      const warning = audit === undefined ? undefined : auditWarnings.find((w) => w.startsWith(`audit ${audit}:`));
      return warning ? { name, status: 'warn' as const, detail: warning } : { name, status: 'pass' as const };
    });
  }
  const failedAt = all.findIndex(({ name, audit }) => (audit !== undefined ? failure.includes(`audit ${audit} failed`) : failedCheck(name, failure)));
  return all.map(({ name }, i) => ({ name, status: failedAt < 0 ? 'not run' as const : i < failedAt ? 'pass' as const : i === failedAt ? 'fail' as const : 'not run' as const }));
}

/** Whether a staged-row check's failure message is this one (see keyChecks and rangeGuard). */
function failedCheck(name: string, failure: string): boolean {
  if (name.endsWith(' not null')) return failure.includes('produced NULL in unique_key');
  if (name.endsWith(' unique')) return failure.includes('produced duplicate unique_key');
  return / within /.test(name) && failure.includes('would write partitions outside');
}
