import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProjectFile } from '../project/project-file-schema.js';
import { readLockFile, type LockFile } from './lock-file.js';
import { specName, type PackageSpec } from './package-spec.js';
import { packageProjectName, readDeclaredPackages } from './packages-file.js';
import { installPath } from './install-path.js';

/** A package the project declares, where `deps` installs it, and whether it is there. */
export interface InstalledPackage {
  /** Its project name, when known without installing it (from package-lock.yml, or a local package's project file). */
  readonly name?: string;
  /** The package as written: the hub name, the git URL (and subdirectory), the local path. */
  readonly spec: string;
  /** Its install folder (absolute): the install path and its project name (a guess from the spec when unknown). */
  readonly folder: string;
  readonly installed: boolean;
}

function sameSpec(a: PackageSpec, b: PackageSpec): boolean {
  if (a.kind === 'hub' && b.kind === 'hub') return a.package === b.package;
  if (a.kind === 'local' && b.kind === 'local') return a.local === b.local;
  if (a.kind === 'git' && b.kind === 'git') return a.git.replace(/\.git$/, '') === b.git.replace(/\.git$/, '') && a.subdirectory === b.subdirectory;
  return false;
}

/** The folder name a package most likely has: its hub name, its repository's (or subdirectory's) name, its folder's. */
function guessedName(spec: PackageSpec): string {
  const last = (s: string) => s.replace(/\/+$/, '').split('/').at(-1)!;
  if (spec.kind === 'hub') return last(spec.package);
  if (spec.kind === 'local') return last(spec.local);
  return spec.subdirectory ? last(spec.subdirectory) : last(spec.git).replace(/\.git$/, '');
}

function knownName(spec: PackageSpec, lock: LockFile | undefined, projectRoot: string): string | undefined {
  let locked: string | undefined;
  try {
    locked = lock?.packages().find((p) => sameSpec(p.spec, spec))?.name;
  } catch {
    locked = undefined;
  }
  if (locked) return locked;
  if (spec.kind !== 'local') return undefined;
  try {
    return packageProjectName(join(projectRoot, spec.local), spec.local);
  } catch {
    return undefined;
  }
}

/**
 * The project's declared packages (packages.yml or dependencies.yml) and whether each is installed
 * in the install path, for a loader to say "run mini-dbt deps". Cheap: files only, no network, no git.
 * A malformed packages file throws its ProjectError.
 */
export function installedPackages(projectRoot: string, projectFile: Pick<ProjectFile, 'packages-install-path'>): InstalledPackage[] {
  const declared = readDeclaredPackages(projectRoot);
  if (declared.specs.length === 0) return [];
  let lock: LockFile | undefined;
  try {
    lock = readLockFile(projectRoot);
  } catch {
    lock = undefined;
  }
  const dir = installPath(projectRoot, projectFile['packages-install-path']);
  return declared.specs.map((spec) => {
    const name = knownName(spec, lock, projectRoot);
    const folder = join(dir, name ?? guessedName(spec));
    const installed = existsSync(join(folder, 'dbt_project.yml')) || existsSync(join(folder, 'project.yml'));
    return { ...(name ? { name } : {}), spec: specName(spec), folder, installed };
  });
}
