import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { listFiles } from './list-files.js';
import { loadProjectFile } from './load-project-file.js';
import type { ConfigMap, MacroFile } from './project.js';

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
  const macroPaths = config['macro-paths'] ?? ['macros'];
  const testPaths = config['test-paths'] ?? ['tests'];
  const read = (files: ReturnType<typeof listFiles>): MacroFile[] =>
    files.map((f) => ({ path: `${path}/${f.path}`, absPath: f.absPath, source: readFileSync(f.absPath, 'utf8'), package: config.name }));
  const macros = [
    ...macroPaths.flatMap((dir) => read(listFiles(folder, dir, ['.sql']))),
    // <test-path>/generic holds {% test %} definitions, as in the root project.
    ...testPaths.flatMap((dir) => read(listFiles(folder, dir, ['.sql']).filter((f) => f.folders[0] === 'generic'))),
  ];
  const required = config['require-dbt-version'];
  return {
    name: config.name,
    root: folder,
    path,
    vars: config.vars ?? {},
    requireDbtVersion: required === undefined || required === null ? undefined : typeof required === 'string' ? [required] : [...required],
    macros,
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
