import type { TestProject } from 'vitest/node';
import { PG_ENV, type PgTestEnvironment, pgUnavailableReason, startPgCluster, type PgCluster } from './pg-cluster.js';
import { keepReadyDatabases } from './pg-ready-databases.js';

/**
 * vitest globalSetup: ONE throwaway PostgreSQL cluster for the whole run
 * (initdb + start ≈ 1.3 s), stopped and removed in teardown.
 *
 * Tests find it through `inject('miniDbtPg')` and, for the CLIs they spawn
 * (profiles' `env_var()`), through MINI_DBT_TEST_PG_HOST / _PORT / _USER /
 * _PASSWORD / _DATABASE, or MINI_DBT_TEST_PG_UNAVAILABLE=<reason>: set here
 * before the workers fork, so every worker (and its children) inherits them.
 * test/support/pg-test-database.ts reads both.
 *
 * While the run lasts, this process (idle meanwhile) keeps a few empty
 * databases made ahead for the tests to take (test/support/pg-ready-databases.ts).
 *
 * MINI_DBT_TEST_PG=off skips the cluster (the PostgreSQL tests report
 * themselves skipped, with that reason); MINI_DBT_TEST_PG=required fails the
 * run when no cluster can be started instead of skipping.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let cluster: PgCluster | undefined;
  let ready: { stop(): Promise<void> } | undefined;
  let environment: PgTestEnvironment;
  const mode = process.env.MINI_DBT_TEST_PG;
  for (const name of Object.values(PG_ENV)) delete process.env[name];

  if (mode === 'off') {
    environment = { available: false, reason: 'PostgreSQL tests turned off by MINI_DBT_TEST_PG=off' };
  } else {
    const missing = pgUnavailableReason();
    if (missing) {
      environment = { available: false, reason: missing };
    } else {
      try {
        cluster = await startPgCluster();
        const { host, port, user, password, database, version } = cluster;
        environment = { available: true, server: { host, port, user, password, database, version } };
      } catch (error) {
        environment = { available: false, reason: `the throwaway PostgreSQL cluster could not be started: ${(error as Error).message}` };
      }
    }
  }

  if (environment.available) {
    const { server } = environment;
    process.env[PG_ENV.host] = server.host;
    process.env[PG_ENV.port] = String(server.port);
    process.env[PG_ENV.user] = server.user;
    process.env[PG_ENV.password] = server.password;
    process.env[PG_ENV.database] = server.database;
    ready = await keepReadyDatabases(server);
  } else {
    if (mode === 'required') throw new Error(`MINI_DBT_TEST_PG=required, but ${environment.reason}`);
    process.env[PG_ENV.unavailable] = environment.reason;
    console.warn(`PostgreSQL tests will be skipped: ${environment.reason}`);
  }
  project.provide('miniDbtPg', environment);

  return async () => {
    for (const name of Object.values(PG_ENV)) delete process.env[name];
    await ready?.stop();
    await cluster?.stop();
  };
}
