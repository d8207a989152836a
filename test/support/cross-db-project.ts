import { expect } from 'vitest';
import { conformanceProject, type ConformanceProject } from './conformance-project.js';
import type { EngineName } from './engine-under-test.js';

/**
 * The shape of dbt-tests-adapter's utils/ tests for the cross-database macros:
 * seeds, models that compute `actual` with a macro next to `expected`, one
 * `build`, then every row checked. Each model is written twice, as dbt's
 * interpolate_macro_namespace does: with the macros called unqualified
 * (`dateadd(...)`) and as `dbt.dateadd(...)` (in `<model>_qualified`). The
 * project has no macros of its own: the macros are dbt's, as mini-dbt ships them.
 */
export interface CrossDbFixture {
  readonly seeds?: Readonly<Record<string, string>>;
  /** Model name -> SQL calling the macros unqualified. */
  readonly models: Readonly<Record<string, string>>;
  /** The macro names to qualify with `dbt.` in the `_qualified` copy of each model. */
  readonly macros: readonly string[];
  /** Other files of the project (a seeds' properties file), path -> text. */
  readonly files?: Readonly<Record<string, string>>;
}

/** Every model a table, so the rows are read with a plain connection (on SQLite the `md5` of hash lives in mini-dbt's). */
const PROJECT_FILE = "name: cross_db\nversion: '1.0'\nprofile: default\nmodels:\n  cross_db:\n    +materialized: table\n";

/** `name(` becomes `dbt.name(` inside `{{ ... }}` only (SQL's own date() and replace() stay). */
export function qualify(sql: string, macros: readonly string[]): string {
  const call = new RegExp(`(?<![\\w.])(${macros.join('|')})\\(`, 'g');
  return sql.replace(/\{\{[\s\S]*?\}\}/g, (expression) => expression.replace(call, 'dbt.$1('));
}

/** The fixture's project on `engine`, built (seeds, both copies of each model); fails the test if the build does not pass. */
export function buildCrossDbProject(fixture: CrossDbFixture, engine: EngineName = 'sqlite'): ConformanceProject {
  const files: Record<string, string> = { 'dbt_project.yml': PROJECT_FILE, ...fixture.files };
  for (const [name, csv] of Object.entries(fixture.seeds ?? {})) files[`seeds/${name}.csv`] = csv;
  for (const [name, sql] of Object.entries(fixture.models)) {
    files[`models/${name}.sql`] = sql;
    files[`models/${name}_qualified.sql`] = qualify(sql, fixture.macros);
  }
  const project = conformanceProject(files, 'cross_db', { engine });
  const out = project.dbt(['build']);
  expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(0);
  return project;
}

const same = (a: unknown, b: unknown): boolean => a === b || (a === null && b === null);

/**
 * dbt's assert_equal test on both copies of a model: the rows where `actual`
 * and `expected` differ (NULL equals NULL), which must be none. Returns the
 * rows of the unqualified model, for cases that also look at them.
 */
export function expectActualEqualsExpected(project: ConformanceProject, model: string, actual = 'actual', expected = 'expected'): Record<string, unknown>[] {
  let rows: Record<string, unknown>[] = [];
  for (const relation of [model, `${model}_qualified`]) {
    const read = project.rows(relation);
    const wrong = read.filter((row) => !same(row[actual], row[expected]));
    expect(wrong, `${relation}: rows where ${actual} <> ${expected}`).toEqual([]);
    expect(read.length, `${relation} has rows`).toBeGreaterThan(0);
    if (relation === model) rows = read;
  }
  return rows;
}
