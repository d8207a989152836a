/**
 * Test-only hooks: the one module through which tests reach into a running
 * mini-dbt to crash it, fail it or pause it at a precise place. It imports
 * nothing from src/, so every layer may call it, and nothing of it is part of
 * the package's API (src/index.ts exports none of it; a test checks).
 *
 * The variables (read from the environment once, when this module loads):
 *
 * - MINI_DBT_CRASH_AT=N: the process kills itself with SIGKILL at the N-th
 *   crash point it passes (each statement of a publish, ledger writes,
 *   commits, seed batches), so crash tests can stop a real CLI at many
 *   precise places. Used by test/integration/crash-safety.test.ts and
 *   lock-holder.test.ts (a writer killed holding the lock).
 * - MINI_DBT_CRASH_COUNT=1: print how many crash points the command passed
 *   (to stderr, at exit: "mini-dbt crash points passed: N"), so
 *   crash-safety.test.ts can spread its kill points over them.
 * - MINI_DBT_INJECT_FAILURE=<model>:<role>[,<model>:<role>...]: the statement
 *   with that role of that model fails right after it ran, so tests can prove
 *   a publish is all-or-nothing. Roles: a statement's role (pre-hook, stage,
 *   index, delete, insert, upsert, swap, drop, create-view, schema-change,
 *   custom, post-hook) or commit (just before COMMIT).
 *   Used by test/integration/backfill.test.ts, bad-input.test.ts,
 *   model-configs.test.ts, and through test/support/strategy-project.ts
 *   (withInjectedFailure) by the strategy tests (test/unit/materialize/
 *   incremental/*, one-statement.test.ts, microbatch.test.ts).
 * - MINI_DBT_PAUSE=<model>:<role>:<ms>[,...]: hold the publish transaction
 *   (and so the write lock) for that long after that statement, so a test can
 *   act while a writer is in the middle of a publish; with
 *   MINI_DBT_PAUSE_UNTIL=<file>, only until that file exists (the test says
 *   it is done), at most that long. Used by
 *   test/integration/concurrency.test.ts and lock-holder.test.ts.
 *
 * Inert unless the environment asks: with none of these set, every hook is
 * the same empty function (`inert`), so the hot path pays one call to it and
 * nothing else. Under vitest (VITEST is set) the tests running in-process set
 * MINI_DBT_INJECT_FAILURE and MINI_DBT_PAUSE around a single run, after this
 * module loaded: there, and only there, those two are read at each call.
 */

import { existsSync } from 'node:fs';

type Env = Readonly<Record<string, string | undefined>>;

export interface TestHooks {
  /** A place a crash test may kill the process at (MINI_DBT_CRASH_AT, MINI_DBT_CRASH_COUNT). */
  readonly crashPoint: () => void;
  /** Right after the statement with `role` of `model` ran: pause (MINI_DBT_PAUSE), then fail (MINI_DBT_INJECT_FAILURE). */
  readonly injectedFailure: (model: string, role: string) => void;
}

/** The hook that does nothing: every hook is this function when its variables are not set. */
export function inert(): void {
  // nothing asked for: no test is looking
}

/**
 * The hooks the environment `env` asks for. `live`: read the injection
 * variables from `env` at each call (vitest, where tests change process.env
 * in-process) instead of once now.
 */
export function testHooks(env: Env, live = Boolean(env.VITEST)): TestHooks {
  return { crashPoint: crashPointHook(env), injectedFailure: injectionHook(env, live) };
}

function crashPointHook(env: Env): () => void {
  const target = Number(env.MINI_DBT_CRASH_AT ?? 0);
  const count = Boolean(env.MINI_DBT_CRASH_COUNT);
  if (!(target > 0) && !count) return inert;
  let passed = 0;
  if (count) process.on('exit', () => process.stderr.write(`mini-dbt crash points passed: ${passed}\n`));
  return () => {
    passed++;
    if (passed === target) process.kill(process.pid, 'SIGKILL');
  };
}

function injectionHook(env: Env, live: boolean): (model: string, role: string) => void {
  if (live) {
    return (model, role) => {
      pause(env.MINI_DBT_PAUSE, model, role, env.MINI_DBT_PAUSE_UNTIL);
      fail(env.MINI_DBT_INJECT_FAILURE, model, role);
    };
  }
  const pauses = env.MINI_DBT_PAUSE;
  const failures = env.MINI_DBT_INJECT_FAILURE;
  if (!pauses && !failures) return inert;
  return (model, role) => {
    pause(pauses, model, role, env.MINI_DBT_PAUSE_UNTIL);
    fail(failures, model, role);
  };
}

function fail(spec: string | undefined, model: string, role: string): void {
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const [m, r] = entry.split(':');
    if (m === model && r === role) throw new Error(`injected failure after the ${role} step of ${model} (MINI_DBT_INJECT_FAILURE)`);
  }
}

function pause(spec: string | undefined, model: string, role: string, until: string | undefined): void {
  if (!spec) return;
  for (const entry of spec.split(',')) {
    const [m, r, ms] = entry.split(':');
    if (m !== model || r !== role) continue;
    const cell = new Int32Array(new SharedArrayBuffer(4));
    if (!until) {
      Atomics.wait(cell, 0, 0, Number(ms));
      continue;
    }
    // Until the test has done what it held the writer for (it creates the file), at most `ms`.
    for (let left = Number(ms); left > 0 && !existsSync(until); left -= 20) Atomics.wait(cell, 0, 0, Math.min(20, left));
  }
}

const hooks = testHooks(process.env);

/** A place a crash test may kill the process at; inert unless MINI_DBT_CRASH_AT or MINI_DBT_CRASH_COUNT is set. */
export const crashPoint: () => void = hooks.crashPoint;

/** Called right after a publish statement (and before COMMIT, role 'commit'); inert unless MINI_DBT_INJECT_FAILURE or MINI_DBT_PAUSE is set. */
export const injectedFailure: (model: string, role: string) => void = hooks.injectedFailure;
