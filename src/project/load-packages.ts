import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { listFiles, type ListedFile } from './list-files.js';
import { loadProjectFile } from './load-project-file.js';
import { checkRequiredDbtVersion } from './require-dbt-version.js';
import { loadProperties, type LoadedProperties } from './load-properties.js';
import type { ConfigMap, MacroFile, ModelFile, SeedFile, SingularTestFile } from './project.js';

/** An installed package (a folder of packages-install-path with a dbt_project.yml), as the root project loads it. */
export interface PackageProject {
  /** Its dbt_project.yml `name:` (the namespace of its macros). */
  readonly name: string;
  /** Absolute folder. */
  readonly root: string;
  /** The folder relative to the root project, forward slashes (`dbt_packages/dbt_utils`). */
  readonly path: string;
  readonly vars: ConfigMap;
  readonly requireDbtVersion?: readonly string[];
  readonly macros: readonly MacroFile[];
  readonly models: readonly ModelFile[];
  /** Its analyses (under its analysis-paths; none unless its project file names them). */
  readonly analyses: readonly ModelFile[];
  readonly seeds: readonly SeedFile[];
  readonly singularTests: readonly SingularTestFile[];
  /** Its yml properties (models, seeds, sources), paths relative to the root project. */
  readonly properties: LoadedProperties;
  /** Its own dbt_project.yml config trees (the root project's trees win over them). */
  readonly modelFolderConfigs: ConfigMap;
  readonly seedFolderConfigs: ConfigMap;
  readonly testFolderConfigs: ConfigMap;
  /** Its project file's `restrict-access` (dbt's: its protected models may not be referenced from another project). */
  readonly restrictAccess: boolean;
}

/** `packages-install-path` of the root project file (dbt's default: dbt_packages). */
export function packagesInstallPath(config: { readonly 'packages-install-path'?: string | null }): string {
  return config['packages-install-path'] ?? 'dbt_packages';
}

/**
 * Every package installed under `installPath` (each folder holding a
 * dbt_project.yml; a symlinked local package counts), sorted by folder name.
 * Two folders claiming one package name are refused: their macros would clash.
 */
export function loadPackages(root: string, installPath: string, rootName: string): PackageProject[] {
  const base = join(root, installPath);
  if (!existsSync(base)) return [];
  const out: PackageProject[] = [];
  const seen = new Map<string, string>();
  for (const entry of readdirSync(base).sort()) {
    if (entry.startsWith('.')) continue;
    const folder = join(base, entry);
    if (!isFolder(folder) || !(existsSync(join(folder, 'dbt_project.yml')) || existsSync(join(folder, 'project.yml')))) continue;
    const pkg = loadPackage(root, folder);
    const other = seen.get(pkg.name) ?? (pkg.name === rootName ? '(the root project)' : undefined);
    if (other !== undefined) {
      throw new ProjectError(`two projects are named '${pkg.name}': ${other} and ${pkg.path}`, {
        location: { file: `${pkg.path}/dbt_project.yml` },
        hint: 'package names are namespaces; remove one of them (mini-dbt deps installs each package once)',
      });
    }
    seen.set(pkg.name, pkg.path);
    out.push(pkg);
  }
  return out;
}

function loadPackage(projectRoot: string, folder: string): PackageProject {
  const path = relative(projectRoot, folder).split(sep).join('/');
  let loaded: ReturnType<typeof loadProjectFile>;
  try {
    loaded = loadProjectFile(folder);
  } catch (err) {
    if (err instanceof ProjectError) throw new ProjectError(`in the package at ${path}: ${err.message}`, { location: err.location, hint: err.hint });
    throw err;
  }
  const { config } = loaded;
  const pkg = config.name;
  const macroPaths = config['macro-paths'] ?? ['macros'];
  const testPaths = config['test-paths'] ?? ['tests'];
  const modelPaths = config['model-paths'] ?? config['source-paths'] ?? ['models'];
  const seedPaths = config['seed-paths'] ?? config['data-paths'] ?? ['seeds'];
  // Files listed under the package folder, their paths made relative to the root project.
  const list = (dir: string, extensions: readonly string[]): ListedFile[] =>
    listFiles(folder, dir, extensions).map((f) => ({ ...f, path: `${path}/${f.path}` }));
  const read = (files: readonly ListedFile[]): MacroFile[] =>
    files.map((f) => ({ path: f.path, absPath: f.absPath, source: readFileSync(f.absPath, 'utf8'), package: pkg }));
  const testFiles = testPaths.flatMap((dir) => list(dir, ['.sql']));
  const macros = [
    ...macroPaths.flatMap((dir) => read(list(dir, ['.sql']))),
    // <test-path>/generic holds {% test %} definitions, as in the root project.
    ...read(testFiles.filter((f) => f.folders[0] === 'generic')),
  ];
  const models: ModelFile[] = modelPaths.flatMap((dir) =>
    list(dir, ['.sql']).map((f) => ({ name: f.stem, path: f.path, absPath: f.absPath, rawSql: readFileSync(f.absPath, 'utf8'), folders: f.folders, package: pkg })));
  const seeds: SeedFile[] = seedPaths.flatMap((dir) => list(dir, ['.csv']).map((f) => ({ name: f.stem, path: f.path, absPath: f.absPath, folders: f.folders, package: pkg })));
  const analyses: ModelFile[] = (config['analysis-paths'] ?? []).flatMap((dir) =>
    list(dir, ['.sql']).map((f) => ({ name: f.stem, path: f.path, absPath: f.absPath, rawSql: readFileSync(f.absPath, 'utf8'), folders: f.folders, package: pkg })));
  const singularTests: SingularTestFile[] = testFiles
    .filter((f) => f.folders[0] !== 'generic' && f.folders[0] !== 'fixtures')
    .map((f) => ({ name: f.stem, path: f.path, absPath: f.absPath, rawSql: readFileSync(f.absPath, 'utf8'), package: pkg }));
  const properties = loadProperties([...modelPaths, ...seedPaths].flatMap((dir) => list(dir, ['.yml', '.yaml'])));
  const required = config['require-dbt-version'];
  checkRequiredDbtVersion(pkg, required === undefined || required === null ? undefined : typeof required === 'string' ? [required] : [...required], `${path}/${loaded.file}`, false);
  return {
    name: config.name,
    root: folder,
    path,
    vars: config.vars ?? {},
    requireDbtVersion: required === undefined || required === null ? undefined : typeof required === 'string' ? [required] : [...required],
    macros,
    models,
    analyses,
    seeds,
    singularTests,
    properties: {
      ...properties,
      sources: properties.sources.map((s) => ({ ...s, package: pkg })),
    },
    modelFolderConfigs: config.models ?? {},
    seedFolderConfigs: config.seeds ?? {},
    testFolderConfigs: config.data_tests ?? config.tests ?? {},
    restrictAccess: config['restrict-access'] === true,
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
