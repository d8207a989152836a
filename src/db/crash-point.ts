/**
 * Test-only crash injection: with MINI_DBT_CRASH_AT=N the process kills
 * itself with SIGKILL at the N-th crash point it passes (statements of a
 * publish, ledger writes, commits, seed batches), so crash tests can stop a
 * real CLI at many precise places. MINI_DBT_CRASH_COUNT=1 prints how many
 * points a command passes (to stderr at exit), to spread kill points.
 */
let passed = 0;
const target = Number(process.env.MINI_DBT_CRASH_AT ?? 0);

if (process.env.MINI_DBT_CRASH_COUNT) {
  process.on('exit', () => process.stderr.write(`mini-dbt crash points passed: ${passed}\n`));
}

export function crashPoint(): void {
  passed++;
  if (target > 0 && passed === target) process.kill(process.pid, 'SIGKILL');
}
