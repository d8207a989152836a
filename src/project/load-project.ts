import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { listFiles, withFolderListings } from './list-files.js';
import { loadTarget, type TargetOptions } from './load-target.js';
import { loadProjectFile } from './load-project-file.js';
import { loadProperties } from './load-properties.js';
import { loadSnapshots } from './load-snapshots.js';
import { defaultDocsPaths, loadDocsBlocks } from './load-docs-blocks.js';
import { loadPackages, packagesInstallPath } from './load-packages.js';
import { checkRequiredDbtVersion } from './require-dbt-version.js';
import { withPackageProperties } from './package-properties.js';
import { withVersionedModelFiles } from './versioned-model-files.js';
import { queryCommentSetting } from './query-comment-setting.js';
import type { MacroFile, ModelFile, Project, SeedFile, SingularTestFile } from './project.js';
import type { FixtureFile } from './unit-test-definition.js';

export interface LoadProjectOptions extends TargetOptions {
  /** Overrides the project's `database:` and the target's main file (relative to the current directory). */
  readonly database?: string;
  /** dbt's --target-path (or DBT_TARGET_PATH): overrides the project file's `target-path:` (relative to the project). */
  readonly targetPath?: string;
}

/** Load the project folder: project file, models, seeds, macros, tests and yml properties. */
export function loadProject(projectDir: string, options: LoadProjectOptions = {}): Project {
  return withFolderListings(() => loadProjectFiles(projectDir, options));
}

function loadProjectFiles(projectDir: string, options: LoadProjectOptions): Project {
  const root = resolve(projectDir);
  const { file, config, lineOf } = loadProjectFile(root);
  const paths = {
    models: config['model-paths'] ?? config['source-paths'] ?? ['models'],
    seeds: config['seed-paths'] ?? config['data-paths'] ?? ['seeds'],
    macros: config['macro-paths'] ?? ['macros'],
    tests: config['test-paths'] ?? ['tests'],
    target: targetPath(root, options.targetPath ?? config['target-path'] ?? 'target'),
    snapshots: config['snapshot-paths'] ?? ['snapshots'],
  };
  // dbt's docs-paths: the project file's, else every resource path.
  const docsPaths = config['docs-paths'] ?? defaultDocsPaths([paths.models, paths.seeds, paths.snapshots, config['analysis-paths'] ?? ['analyses'], paths.macros, paths.tests]);

  const required = config['require-dbt-version'];
  checkRequiredDbtVersion(config.name, required === undefined || required === null ? undefined : typeof required === 'string' ? [required] : [...required], file, true);
  const packages = loadPackages(root, packagesInstallPath(config), config.name);
  const models: ModelFile[] = [];
  const byName = new Map<string, ModelFile>();
  const rootModels = paths.models.flatMap((dir) =>
    listFiles(root, dir, ['.sql']).map((f): ModelFile => ({ name: f.stem, path: f.path, absPath: f.absPath, rawSql: readFileSync(f.absPath, 'utf8'), folders: f.folders })));
  for (const model of [...rootModels, ...packages.flatMap((p) => p.models)]) {
    const clash = byName.get(model.name);
    if (clash) {
      throw new ProjectError(`two models are named '${model.name}': ${clash.path} and ${model.path}`, {
        location: { file: model.path },
        hint: clash.package === model.package
          ? 'model names must be unique across folders; rename one of them'
          : "mini-dbt needs model names unique across the project and its packages (dbt tells them apart with ref('package', 'name')); disable or rename one",
      });
    }
    byName.set(model.name, model);
    models.push(model);
  }

  const seeds: SeedFile[] = [
    ...paths.seeds.flatMap((dir) => listFiles(root, dir, ['.csv']).map((f) => ({ name: f.stem, path: f.path, absPath: f.absPath, folders: f.folders }))),
    ...packages.flatMap((p) => p.seeds),
  ];
  // A seed named as a model is refused here; two seeds of one name only when both are enabled (capture-project.ts:
  // a package's seed the root project disables, e.g. to replace it with its own, is no clash, as in dbt).
  for (const seed of seeds) {
    const other = byName.get(seed.name)?.path;
    if (other !== undefined) {
      throw new ProjectError(`the name '${seed.name}' is used twice: ${other} and ${seed.path}`, {
        location: { file: seed.path },
        hint: `ref('${seed.name}') could not tell them apart; rename one of them`,
      });
    }
  }

  const macros: MacroFile[] = paths.macros.flatMap((dir) =>
    listFiles(root, dir, ['.sql']).map((f) => ({ path: f.path, absPath: f.absPath, source: readFileSync(f.absPath, 'utf8') })),
  );
  // tests/generic/*.sql hold {% test %} definitions (macros), as in dbt; the other files are singular tests.
  const testFiles = paths.tests.flatMap((dir) => listFiles(root, dir, ['.sql']));
  macros.push(...testFiles.filter((f) => f.folders[0] === 'generic').map((f) => ({ path: f.path, absPath: f.absPath, source: readFileSync(f.absPath, 'utf8') })));
  // tests/fixtures/ holds unit test fixtures (csv or sql), not singular tests.
  const singularTests: SingularTestFile[] = [
    ...testFiles
      .filter((f) => f.folders[0] !== 'generic' && f.folders[0] !== 'fixtures')
      .map((f) => ({ name: f.stem, path: f.path, absPath: f.absPath, rawSql: readFileSync(f.absPath, 'utf8') })),
    ...packages.flatMap((p) => p.singularTests),
  ];
  // dbt's analyses: none unless the project file names analysis-paths (dbt init writes ["analyses"]).
  const analysisPaths = config['analysis-paths'] ?? [];
  const analyses: ModelFile[] = [
    ...analysisPaths.flatMap((dir) =>
      listFiles(root, dir, ['.sql']).map((f): ModelFile => ({ name: f.stem, path: f.path, absPath: f.absPath, rawSql: readFileSync(f.absPath, 'utf8'), folders: f.folders }))),
    ...packages.flatMap((p) => p.analyses),
  ];
  const ymlFiles = [...paths.models, ...paths.seeds, ...analysisPaths.filter((dir) => !paths.models.includes(dir) && !paths.seeds.includes(dir))]
    .flatMap((dir) => listFiles(root, dir, ['.yml', '.yaml']));
  const properties = withPackageProperties(loadProperties(ymlFiles), packages);

  macros.push(...packages.flatMap((p) => p.macros));

  // The profile's target (profiles.yml), if any; --database still wins over its main file.
  const { target, mainPath } = loadTarget(root, typeof config.profile === 'string' ? config.profile : undefined, options);
  const database = options.database
    ? resolve(options.database)
    : mainPath ?? (isAbsolute(config.database ?? '') ? (config.database as string) : resolve(root, config.database ?? 'warehouse.db'));

  return {
    root,
    name: config.name,
    configFile: file,
    configFileLineOf: lineOf,
    paths: { ...paths, docs: docsPaths },
    vars: config.vars ?? {},
    databasePath: database,
    target,
    busyTimeoutMs: config['busy-timeout'],
    modelFolderConfigs: config.models ?? {},
    seedFolderConfigs: config.seeds ?? {},
    snapshotFolderConfigs: config.snapshots ?? {},
    sourceFolderConfigs: config.sources ?? {},
    flags: config.flags ?? {},
    testFolderConfigs: config.data_tests ?? config.tests ?? {},
    onRunStart: hookList(config['on-run-start']),
    onRunEnd: hookList(config['on-run-end']),
    queryComment: queryCommentSetting(config['query-comment'], file, lineOf(['query-comment'])),
    models: withVersionedModelFiles(models, properties.models),
    seeds,
    macros,
    packages,
    packagesInstallPath: packagesInstallPath(config),
    dispatch: (config.dispatch ?? []).map((d) => ({ macroNamespace: d.macro_namespace, searchOrder: d.search_order })),
    singularTests,
    snapshots: loadSnapshots(root, paths.snapshots, paths.models),
    docsBlocks: loadDocsBlocks(root, docsPaths),
    sources: properties.sources,
    modelProperties: properties.models,
    seedProperties: properties.seeds,
    unitTests: properties.unitTests,
    exposures: properties.exposures,
    groups: properties.groups,
    unitTestFolderConfigs: config.unit_tests ?? {},
    analyses,
    analysisFolderConfigs: config.analyses ?? {},
    analysisProperties: properties.analyses,
    fixtures: fixtureFiles(root, paths.tests),
  };
}

/** Unit test fixtures: <name>.csv or .sql anywhere under <test-path>/fixtures, by name (a name used twice is refused). */
function fixtureFiles(root: string, testPaths: readonly string[]): Map<string, FixtureFile> {
  const out = new Map<string, FixtureFile>();
  for (const dir of testPaths) {
    for (const f of listFiles(root, `${dir}/fixtures`, ['.csv', '.sql'])) {
      const other = out.get(f.stem);
      if (other) throw new ProjectError(`two unit test fixtures are named '${f.stem}': ${other.path} and ${f.path}`, { location: { file: f.path }, hint: 'fixtures are found by name; rename one of them' });
      out.set(f.stem, { name: f.stem, path: f.path, absPath: f.absPath, format: f.path.endsWith('.csv') ? 'csv' : 'sql' });
    }
  }
  return out;
}

/** `on-run-start` / `on-run-end`: a string or a list of them, as dbt takes them; empty ones run nothing. */
function hookList(value: string | readonly string[] | null | undefined): string[] {
  if (value === undefined || value === null) return [];
  return (typeof value === 'string' ? [value] : [...value]).filter((h) => h.trim() !== '');
}

/**
 * The target path as the project's files use it (joined to the project root): an absolute
 * --target-path or target-path (dbt joins paths as Python does, so an absolute one wins) is
 * kept as the way there from the root.
 */
function targetPath(root: string, given: string): string {
  return isAbsolute(given) ? relative(root, given) || '.' : given;
}
