/**
 * Test-only fault injection: MINI_DBT_INJECT_FAILURE="<model>:<role>" makes
 * the statement with that role of that model fail right after it ran, so
 * tests can prove a publish is all-or-nothing. Roles: stage, delete, insert,
 * swap, index, pre-hook, post-hook, commit.
 */
export function injectedFailure(model: string, role: string): void {
  injectedPause(model, role);
  const spec = process.env.MINI_DBT_INJECT_FAILURE;
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const [m, r] = entry.split(':');
    if (m === model && r === role) throw new Error(`injected failure after the ${role} step of ${model} (MINI_DBT_INJECT_FAILURE)`);
  }
}

/**
 * Test-only: MINI_DBT_PAUSE="<model>:<role>:<ms>" holds the publish
 * transaction (and so the write lock) for that long after the statement, so
 * concurrency tests can act while a writer is in the middle of a publish.
 */
function injectedPause(model: string, role: string): void {
  const spec = process.env.MINI_DBT_PAUSE;
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const [m, r, ms] = entry.split(':');
    if (m === model && r === role) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(ms));
  }
}
