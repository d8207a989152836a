/**
 * Test-only fault injection: MINI_DBT_INJECT_FAILURE="<model>:<role>" makes
 * the statement with that role of that model fail right after it ran, so
 * tests can prove a publish is all-or-nothing. Roles: stage, delete, insert,
 * swap, index, pre-hook, post-hook, commit.
 */
export function injectedFailure(model: string, role: string): void {
  const spec = process.env.MINI_DBT_INJECT_FAILURE;
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const [m, r] = entry.split(':');
    if (m === model && r === role) throw new Error(`injected failure after the ${role} step of ${model} (MINI_DBT_INJECT_FAILURE)`);
  }
}
