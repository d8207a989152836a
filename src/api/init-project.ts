import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { PROJECT_NAME, starterProfile, starterProjectFiles } from './starter-project.js';

export interface InitOptions {
  /** The new project's name, and its folder's. */
  readonly name: string;
  /** The folder the project's folder is created in (default: the current directory). */
  readonly parentDir?: string;
  /** dbt's --skip-profile-setup: no profiles.yml (the project's warehouse.db is then the target). */
  readonly skipProfileSetup?: boolean;
}

export interface InitResult {
  /** The new project folder (absolute). */
  readonly dir: string;
  /** The files written, project-relative, in order. */
  readonly files: readonly string[];
  /** The profiles.yml written, unless skipped. */
  readonly profilesFile?: string;
}

/** Check a project name as dbt's init does. */
export function checkProjectName(name: string): void {
  if (!PROJECT_NAME.test(name)) {
    throw new ProjectError(`project name '${name}' is invalid: use letters, digits and underscores, not starting with a digit`, {
      hint: 'mini-dbt init my_project',
    });
  }
}

/**
 * dbt's `init`: a new project folder with the starter project and, unless
 * skipped, a dbt-sqlite profiles.yml in it. An existing folder is refused and left as it was.
 */
export function initProject(options: InitOptions): InitResult {
  checkProjectName(options.name);
  const dir = resolve(options.parentDir ?? process.cwd(), options.name);
  if (existsSync(dir)) {
    throw new ProjectError(`A project called ${options.name} already exists here (${dir}); nothing was written`, {
      hint: 'choose another name, or run mini-dbt init in another folder',
    });
  }
  const files = { ...starterProjectFiles(options.name), ...(options.skipProfileSetup ? {} : { 'profiles.yml': starterProfile(options.name) }) };
  // Not recursive: a folder made in the meantime is refused, not written into.
  try {
    mkdirSync(dirname(dir), { recursive: true });
    mkdirSync(dir);
  } catch (err) {
    throw new ProjectError(`cannot create ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text, { flag: 'wx' });
    }
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new ProjectError(`cannot write the new project in ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { dir, files: Object.keys(files), ...(options.skipProfileSetup ? {} : { profilesFile: join(dir, 'profiles.yml') }) };
}
