import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { readYamlFile, type YamlFile } from '../project/read-yaml-file.js';
import { parsePackageEntries, type PackageSpec } from './package-spec.js';

/** A file of a package as messages name it: under its path, URL or hub name ('' for the root project). */
const shownPath = (shown: string, file: string) => (shown === '' ? file : `${shown}/${file}`);

export const PACKAGES_FILES = ['packages.yml', 'dependencies.yml'] as const;

/** A project's declared packages: from packages.yml or dependencies.yml (dbt 1.6+), never both. */
export interface DeclaredPackages {
  /** The file they come from (none: the project declares no package). */
  readonly file?: (typeof PACKAGES_FILES)[number];
  /** The entries as written. */
  readonly entries: readonly unknown[];
  readonly specs: readonly PackageSpec[];
}

/**
 * Read `dir`'s packages file. `shown` is how messages name the folder ('' for the root project,
 * whose files are named relative to it).
 */
export function readDeclaredPackages(dir: string, shown = '', requirer?: string): DeclaredPackages {
  const read = new Map<string, YamlFile>();
  for (const name of PACKAGES_FILES) {
    const path = join(dir, name);
    if (existsSync(path)) read.set(name, readYamlFile(path, shownPath(shown, name)));
  }
  const hasPackages = (name: string) => {
    const value = read.get(name)?.value;
    return value !== null && typeof value === 'object' && !Array.isArray(value) && 'packages' in value;
  };
  if (hasPackages('packages.yml') && hasPackages('dependencies.yml')) {
    throw new ProjectError("The 'packages' key cannot be specified in both packages.yml and dependencies.yml", {
      location: { file: shownPath(shown, 'dependencies.yml') },
      hint: 'keep the packages in one of the two files (dbt 1.6+ reads dependencies.yml first)',
    });
  }
  const file = hasPackages('dependencies.yml') ? 'dependencies.yml' : read.has('packages.yml') ? 'packages.yml' : undefined;
  if (!file) return { entries: [], specs: [] };
  const yaml = read.get(file)!;
  const value = yaml.value;
  if (value === null || value === undefined) return { file, entries: [], specs: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ProjectError(`${file} must be a mapping with a 'packages' list`, { location: { file: yaml.displayPath, line: 1 } });
  }
  const list = (value as Record<string, unknown>).packages;
  if (list === null || list === undefined) return { file, entries: [], specs: [] };
  if (!Array.isArray(list)) {
    throw new ProjectError(`'packages' in ${file} must be a list of packages, got ${typeof list}`, { location: { file: yaml.displayPath, line: yaml.lineOf(['packages']) } });
  }
  const specs = parsePackageEntries(list, { label: requirer ?? file, file: yaml.displayPath }, (path) => yaml.lineOf(path));
  return { file, entries: list, specs };
}

/** The `name:` of the dbt project in `dir` (dbt names a package's install folder by it). */
export function packageProjectName(dir: string, shown: string): string {
  const file = ['dbt_project.yml', 'project.yml'].find((f) => existsSync(join(dir, f)));
  if (!file) throw new ProjectError(`${shown} is not a dbt project: it has no dbt_project.yml`, { hint: 'a package is a dbt project; for a git package in a folder of its repository, set subdirectory:' });
  const yaml = readYamlFile(join(dir, file), shownPath(shown, file));
  const name = (yaml.value as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new ProjectError(`${file} of ${shown} has no valid 'name:' (letters, digits and underscores)`, { location: { file: yaml.displayPath, line: yaml.lineOf(['name']) ?? 1 } });
  }
  return name;
}
