/** The loaded project: every file and declaration, before any rendering. */
import type { Target } from './target.js';
import type { ExposureDefinition } from './exposure-definition.js';
import type { GroupDefinition } from './group-definition.js';
import type { SnapshotDefinition } from './snapshot-definition.js';
import type { DocsBlock } from './docs-block.js';
import type { FixtureFile, UnitTestDefinition } from './unit-test-definition.js';
import type { PackageProject } from './load-packages.js';
import type { ModelVersion } from './model-version.js';
import type { ConstraintDefinition } from './constraint-definition.js';
import type { QueryCommentSetting } from './query-comment-setting.js';

/** One entry of the root project's `dispatch:` (where adapter.dispatch looks for a namespace's macros). */
export interface DispatchOrder {
  /** The namespace a package dispatches in (`adapter.dispatch('x', 'dbt_utils')`). */
  readonly macroNamespace: string;
  /** The packages searched, in order. */
  readonly searchOrder: readonly string[];
}

export type ConfigMap = Readonly<Record<string, unknown>>;

export interface SourceLocation {
  readonly file: string; // project-relative path
  readonly line?: number;
}

export interface ColumnProperties {
  readonly name: string;
  readonly description?: string;
  readonly dataType?: string;
  /** `quote: true`: the name is quoted in a contracted table's DDL. */
  readonly quote?: boolean;
  /** The column's `constraints:` (applied when the model's contract is enforced). */
  readonly constraints?: readonly ConstraintDefinition[];
  readonly tests: readonly unknown[];
}

/** Properties declared for a model or seed in a yml file. */
export interface NodeProperties {
  readonly name: string;
  readonly description?: string;
  readonly columns: readonly ColumnProperties[];
  /** Model-level `constraints:` (each with its `columns:`). */
  readonly constraints?: readonly ConstraintDefinition[];
  readonly config: ConfigMap;
  readonly tests: readonly unknown[];
  readonly location: SourceLocation;
  /** The line of a value below this entry (`['config', 'enabled']`), else the entry's own line: for errors. */
  readonly lineOf?: (path: readonly (string | number)[]) => number | undefined;
  /** One version of a versioned model (dbt's `versions:`); the entry's name is then `<model>.v<v>`. */
  readonly version?: ModelVersion;
  /** An unversioned model's `deprecation_date:` as written (a version's is its ModelVersion's). */
  readonly deprecationDate?: string;
  /** A model's `time_spine:` (standard_granularity_column, custom_granularities), as written. */
  readonly timeSpine?: Readonly<Record<string, unknown>>;
}

export interface SourceTable {
  readonly sourceName: string;
  readonly tableName: string;
  /** The relation the table lives in (identifier, default: table name). */
  readonly identifier: string;
  /** The schema the source's tables are in (the source's `schema:`, default its name; read only with a profile). */
  readonly schema: string;
  readonly description?: string;
  /** The source's own `description:` and `loader:` (dbt's source_description and loader). */
  readonly sourceDescription?: string;
  readonly loader?: string;
  readonly columns: readonly ColumnProperties[];
  readonly config: ConfigMap;
  readonly location: SourceLocation;
  /** The installed package whose yml declares the source; absent for the root project. */
  readonly package?: string;
  /** Table-level data tests (raw yml entries). */
  readonly tests?: readonly unknown[];
  /** The line of a value below the table's entry (`['identifier']`), else the entry's own line: for errors. */
  readonly lineOf?: (path: readonly (string | number)[]) => number | undefined;
}

export interface ModelFile {
  readonly name: string;
  readonly path: string; // project-relative, forward slashes
  readonly absPath: string;
  readonly rawSql: string;
  /** Folder parts below the model path, for folder configs and fqn. */
  readonly folders: readonly string[];
  /** The installed package the model comes from; absent for the root project's own. */
  readonly package?: string;
  /** The version of a versioned model this file defines (its name is then `<model>.v<v>`). */
  readonly version?: ModelVersion;
}

export interface SeedFile {
  readonly name: string;
  readonly path: string;
  readonly absPath: string;
  readonly folders: readonly string[];
  /** The installed package the seed comes from; absent for the root project's own. */
  readonly package?: string;
}

export interface MacroFile {
  readonly path: string;
  readonly absPath: string;
  readonly source: string;
  /** The package the macro belongs to (its dbt_project.yml name); absent for the root project's own. */
  readonly package?: string;
}

export interface SingularTestFile {
  readonly name: string;
  readonly path: string;
  readonly absPath: string;
  readonly rawSql: string;
  /** The installed package the test comes from; absent for the root project's own. */
  readonly package?: string;
}

export interface ProjectPaths {
  readonly models: readonly string[];
  readonly seeds: readonly string[];
  readonly macros: readonly string[];
  readonly tests: readonly string[];
  readonly target: string;
  /** `snapshot-paths` (default [snapshots]). */
  readonly snapshots?: readonly string[];
  /** `docs-paths` (default: every resource path), where .md files hold `{% docs %}` blocks. */
  readonly docs?: readonly string[];
}

export interface Project {
  readonly root: string;
  readonly name: string;
  /** 'project.yml' or 'dbt_project.yml'. */
  readonly configFile: string;
  /** The line of a value in the project file (`['models', 'p', '+enabled']`): for errors. */
  readonly configFileLineOf?: (path: readonly (string | number)[]) => number | undefined;
  readonly paths: ProjectPaths;
  readonly vars: ConfigMap;
  readonly databasePath: string;
  /** The profile's target (FILE_TARGET without a profiles.yml): schemas, threads, `target` in templates. */
  readonly target: Target;
  /** Milliseconds to wait for another process's write lock (project.yml `busy-timeout`). */
  readonly busyTimeoutMs?: number;
  /** Folder-level configs from the project file (`models:` / `seeds:` trees). */
  readonly modelFolderConfigs: ConfigMap;
  readonly seedFolderConfigs: ConfigMap;
  /** The project file's `snapshots:` config tree. */
  readonly snapshotFolderConfigs?: ConfigMap;
  /** The project file's `sources:` config tree (config/source-project-config.ts lays it under each table's). */
  readonly sourceFolderConfigs?: ConfigMap;
  /** The project file's `flags:` (dbt's behaviour flags, e.g. source_freshness_run_project_hooks). */
  readonly flags?: ConfigMap;
  /** The project file's `data_tests:` (or legacy `tests:`) config tree. */
  readonly testFolderConfigs: ConfigMap;
  /** The project file's `on-run-start` / `on-run-end` hooks (templates, rendered when they run). */
  readonly onRunStart?: readonly string[];
  readonly onRunEnd?: readonly string[];
  /** dbt's `query-comment`: the comment on every statement sent to the warehouse (absent: none). */
  readonly queryComment?: QueryCommentSetting;
  readonly models: readonly ModelFile[];
  readonly seeds: readonly SeedFile[];
  /** The root project's macros, then every installed package's (each with its `package`). */
  readonly macros: readonly MacroFile[];
  /** `packages-install-path` (dbt_packages by default), where `mini-dbt deps` installs. */
  readonly packagesInstallPath?: string;
  /** Installed packages (packages-install-path), sorted by folder. */
  readonly packages?: readonly PackageProject[];
  /** The root project's `dispatch:` search orders. */
  readonly dispatch?: readonly DispatchOrder[];
  readonly singularTests: readonly SingularTestFile[];
  /** Snapshot blocks and yml snapshot entries under the snapshot paths. */
  readonly snapshots?: readonly SnapshotDefinition[];
  /** `{% docs %}` blocks of the .md files under the docs paths (doc() in descriptions). */
  readonly docsBlocks?: readonly DocsBlock[];
  readonly sources: readonly SourceTable[];
  readonly modelProperties: ReadonlyMap<string, NodeProperties>;
  readonly seedProperties: ReadonlyMap<string, NodeProperties>;
  /** dbt 1.8 unit tests from the properties files (resolved against the models by the parse step). */
  readonly unitTests?: readonly UnitTestDefinition[];
  /** The root project's exposures (dashboards, applications) and what they read, from the properties files. */
  readonly exposures?: readonly ExposureDefinition[];
  /** dbt's groups (`groups:` of the property files, the packages' included): what a model's `group` config names. */
  readonly groups?: readonly GroupDefinition[];
  /** The project file's `unit_tests:` config tree (enabled, tags, meta by folder, model and test). */
  readonly unitTestFolderConfigs?: ConfigMap;
  /** dbt's analyses: the .sql files under `analysis-paths` (none unless the project file names them), compiled, never run. */
  readonly analyses?: readonly ModelFile[];
  /** The project file's `analyses:` block (read with the require_analyses_project_level_config flag, as in dbt). */
  readonly analysisFolderConfigs?: ConfigMap;
  /** `analyses:` entries of the property files, by name. */
  readonly analysisProperties?: ReadonlyMap<string, NodeProperties>;
  /** Unit test fixture files under <test-path>/fixtures, by name. */
  readonly fixtures?: ReadonlyMap<string, FixtureFile>;
}
