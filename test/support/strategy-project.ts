import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { run, type RunOptions, type RunResult } from '../../src/api/run.js';
import { loadSession } from '../../src/api/session.js';
import { planScript } from '../../src/plan/node-plan.js';
import { pgProjectDatabase, pgProjectProfiles, pgReader, pgWarehouseSnapshot, sqliteReader, withReader, type EngineName, type WarehouseReader } from './engine-under-test.js';
import { writeProject } from './example-project.js';
import type { PgTestTarget } from './pg-test-database.js';
import { warehouseSnapshot } from './warehouse-snapshot.js';

/**
 * Small projects for strategy tests: a `raw.events` source table the test
 * writes directly, models given as files, runs through the real API on a
 * temp-dir SQLite file.
 */
export interface MiniProject {
  readonly dir: string;
  /** The SQLite file, or on PostgreSQL the database's connection string. */
  readonly database: string;
  readonly engine: EngineName;
  /** The PostgreSQL database it builds into (profiles.yml's `pg` target), on PostgreSQL. */
  readonly pg?: PgTestTarget;
  /** Run SQL on the warehouse (set up or change raw data). */
  exec(sql: string): void;
  /** Rows of a table ordered by every column (or by `orderBy`). */
  rows(table: string, orderBy?: string): Record<string, unknown>[];
  /** Column names and declared types of a table. */
  columns(table: string): { name: string; type: string }[];
  /** The named indexes of a table in the target schema (columns in order). */
  indexes(table: string): { name: string; columns: string[]; unique: boolean }[];
  /** The rows of any query on the warehouse. */
  query(sql: string): Record<string, unknown>[];
  /** Ledger rows for a model, oldest first. */
  ledger(model: string): Record<string, unknown>[];
  /** Everything in the warehouse but the ledger (to prove a failed publish changed nothing). */
  snapshot(): Record<string, unknown>;
  /** Run through the API; artifacts are written only when asked. */
  build(options?: Partial<RunOptions>): Promise<RunResult>;
  /** Run, expecting every node to succeed. */
  buildOk(options?: Partial<RunOptions>): Promise<RunResult>;
  /** The statements `run` would execute now, as compile shows them. */
  script(model: string, options?: Partial<RunOptions>): Promise<string>;
  /** Replace a file of the project. */
  write(path: string, text: string): void;
}

export const SOURCES_YML = `sources:
  - name: raw
    tables:
      - name: events
`;

export interface MiniProjectOptions {
  /** The engine to build on (default sqlite); on postgres the project gets a fresh database, a `profile:` and a profiles.yml naming it. */
  readonly engine?: EngineName;
}

export function miniProject(files: Readonly<Record<string, string>>, projectYml = 'name: shop\n', options: MiniProjectOptions = {}): MiniProject {
  const pg = options.engine === 'postgres' ? pgProjectDatabase('mini') : undefined;
  const profile = /^profile:\s*['"]?([^'"\s]+)/m.exec(projectYml)?.[1];
  const yml = pg && profile === undefined ? `${projectYml.replace(/\n?$/, '\n')}profile: mini\n` : projectYml;
  const dir = writeProject({
    'project.yml': yml,
    // On PostgreSQL a source's schema is real (dbt: its name, `raw`): the fixture's raw.events lives in the target schema, where exec() writes.
    'models/sources.yml': pg ? SOURCES_YML.replace('  - name: raw\n', '  - name: raw\n    schema: "{{ target.schema }}"\n') : SOURCES_YML,
    ...(pg && !('profiles.yml' in files) ? { 'profiles.yml': pgProjectProfiles(pg, profile ?? 'mini') } : {}),
    ...files,
  });
  const database = pg ? pg.connectionString : join(dir, 'warehouse.db');
  const withDb = <T>(fn: (db: WarehouseReader) => T): T => withReader(() => (pg ? pgReader(pg) : sqliteReader(database)), fn);
  const project: MiniProject = {
    dir,
    database,
    engine: pg ? 'postgres' : 'sqlite',
    pg,
    exec: (sql) => withDb((db) => db.exec(sql)),
    rows: (table, orderBy) => withDb((db) => {
      const cols = db.columns(table).map((c) => `"${c.name}"`);
      if (cols.length === 0) return [];
      return db.all(`select * from "${table}" order by ${orderBy ?? cols.map((c) => `${c} nulls first`).join(', ')}`);
    }),
    columns: (table) => withDb((db) => db.columns(table)),
    indexes: (table) => withDb((db) => db.indexes(table)),
    query: (sql) => withDb((db) => db.all(sql)),
    ledger: (model) => withDb((db) => db.all('select * from _mini_dbt_node_runs where model = ? order by id', model)),
    snapshot: () => (pg ? pgWarehouseSnapshot(pg) : warehouseSnapshot(database)),
    build: (options = {}) => run({ projectDir: dir, writeArtifacts: false, ...options }),
    buildOk: async (options = {}) => {
      const result = await project.build(options);
      expect(result.results.filter((r) => r.status !== 'success').map((r) => `${r.name}: ${r.message}`)).toEqual([]);
      return result;
    },
    script: async (model, options = {}) => {
      const plans: string[] = [];
      await run({ projectDir: dir, writeArtifacts: false, select: [model], ...options, onEvent: () => undefined }).then((r) => {
        for (const res of r.results) if (res.plan) plans.push(planScript(res.plan));
      });
      return plans.join('\n\n');
    },
    write: (path, text) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
  };
  loadSession({ projectDir: dir }); // fail fast on a broken fixture
  return project;
}

/** Run `fn` with MINI_DBT_INJECT_FAILURE set, restoring the environment after. */
export async function withInjectedFailure<T>(spec: string, fn: () => Promise<T>): Promise<T> {
  const previous = process.env.MINI_DBT_INJECT_FAILURE;
  process.env.MINI_DBT_INJECT_FAILURE = spec;
  try {
    return await fn();
  } finally {
    if (previous === undefined) delete process.env.MINI_DBT_INJECT_FAILURE;
    else process.env.MINI_DBT_INJECT_FAILURE = previous;
  }
}

/**
 * Inject a failure after the last statement of a model's publish, and prove
 * the publish was all-or-nothing: the warehouse (rows and schema) is as it
 * was, and the ledger has a failure row for the model.
 */
export async function expectAtomicFailure(project: MiniProject, model: string, role: string, options: Partial<RunOptions> = {}): Promise<RunResult> {
  const before = project.snapshot();
  const errorsBefore = project.ledger(model).filter((r) => r.status === 'error').length;
  const result = await withInjectedFailure(`${model}:${role}`, () => project.build({ select: [model], ...options }));
  const mine = result.results.find((r) => r.name === model);
  expect(mine?.status).toBe('error');
  expect(mine?.message).toContain(`injected failure after the ${role} step of ${model}`);
  expect(project.snapshot()).toEqual(before);
  const failures = project.ledger(model).filter((r) => r.status === 'error');
  expect(failures.length).toBe(errorsBefore + 1);
  return result;
}
