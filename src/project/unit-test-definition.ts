import type { VersionValue } from './model-version.js';
import type { ConfigMap } from './project.js';

/** How a unit test's rows are written: yml mappings, CSV text, or a SQL query. */
export type FixtureFormat = 'dict' | 'csv' | 'sql';

/** One `given:` input or the `expect:` of a unit test, as written (rows not yet read from CSV or fixture files). */
export interface UnitTestRows {
  /** `ref('x')`, `source('s', 't')` or `this` (given only). */
  readonly input?: string;
  readonly format: FixtureFormat;
  /** dict: a list of mappings; csv and sql: text; absent: a fixture file, or (a seed input) the seed's own rows. */
  readonly rows?: unknown;
  /** The name of a file under <test-path>/fixtures (csv or sql). */
  readonly fixture?: string;
  readonly line?: number;
}

/** `overrides:` — macros (and context values), vars and env vars a unit test replaces. */
export interface UnitTestOverrides {
  readonly macros: Readonly<Record<string, unknown>>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly envVars: Readonly<Record<string, string>>;
}

/** A dbt 1.8 unit test from a properties file's `unit_tests:`, before its model and inputs are resolved. */
export interface UnitTestDefinition {
  readonly name: string;
  /** The model it tests (by name). */
  readonly model: string;
  readonly description?: string;
  readonly given: readonly UnitTestRows[];
  readonly expect: UnitTestRows;
  /** `overrides:` as written. */
  readonly overrides: UnitTestOverrides;
  /** `config:` (tags, meta, enabled). */
  readonly config: ConfigMap;
  /** The yml file and the entry's line. */
  readonly path: string;
  readonly line: number;
  /** Folders of the yml file below its model path (the test's fqn). */
  readonly folders: readonly string[];
  /** `versions:` of a test of a versioned model: the versions it runs on (include) or skips (exclude); absent: all of them. */
  readonly versions?: { readonly include?: readonly VersionValue[]; readonly exclude?: readonly VersionValue[] };
}

/** A fixture file: tests/fixtures/<name>.csv or .sql. */
export interface FixtureFile {
  readonly name: string;
  readonly path: string;
  readonly absPath: string;
  readonly format: 'csv' | 'sql';
}
