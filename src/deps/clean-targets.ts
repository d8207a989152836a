import { existsSync, rmSync } from 'node:fs';
import { relative, resolve, isAbsolute, sep } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { loadProjectFile } from '../project/load-project-file.js';
import type { ProjectFile } from '../project/project-file-schema.js';

export interface CleanOptions {
  readonly projectRoot: string;
  /** --clean-project-files-only (dbt's default): refuse folders outside the project. */
  readonly projectFilesOnly: boolean;
  /** --target-path (or DBT_TARGET_PATH): the default clean target when the project lists none. */
  readonly targetPath?: string;
  readonly log: (text: string, event?: string) => void;
}

/** The folders dbt will not clean: every source path (models, seeds, snapshots, analyses, macros, tests). */
function sourcePaths(c: ProjectFile): string[] {
  return [
    ...(c['model-paths'] ?? c['source-paths'] ?? ['models']),
    ...(c['seed-paths'] ?? c['data-paths'] ?? ['seeds']),
    ...(c['snapshot-paths'] ?? ['snapshots']),
    ...(c['analysis-paths'] ?? ['analyses']),
    ...(c['macro-paths'] ?? ['macros']),
    ...(c['test-paths'] ?? ['tests']),
  ];
}

const pyList = (paths: readonly string[]) => `[${paths.map((p) => `'${p}'`).join(', ')}]`;

/** `inner` lies strictly inside `outer`. */
function isInside(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/**
 * dbt's clean: remove every `clean-targets` folder (default: the target path), refusing source
 * paths and, unless asked otherwise, folders outside the project. The project folder itself, or a
 * folder holding it, is always refused.
 */
export function runClean(options: CleanOptions): void {
  const root = resolve(options.projectRoot);
  const { config } = loadProjectFile(root);
  const targets = [...new Set((config['clean-targets'] ?? [options.targetPath ?? config['target-path'] ?? 'target']).map((t) => resolve(root, t)))];
  const sources = new Set(sourcePaths(config).map((p) => resolve(root, p)));
  const protectedSources = targets.filter((t) => sources.has(t));
  if (protectedSources.length > 0) throw new ProjectError(`mini-dbt will not clean the following source paths: ${pyList(protectedSources)}`);
  const holdingProject = targets.filter((t) => t === root || isInside(root, t));
  if (holdingProject.length > 0) {
    throw new ProjectError(`mini-dbt will not clean the project folder or a folder holding it: ${pyList(holdingProject)}`, { hint: 'clean-targets lists folders inside the project, such as target and dbt_packages' });
  }
  const outside = targets.filter((t) => !isInside(t, root));
  if (outside.length > 0 && options.projectFilesOnly) {
    throw new ProjectError(`mini-dbt will not clean the following directories outside the project: ${pyList(outside)}`, {
      hint: '--no-clean-project-files-only cleans them too',
    });
  }
  for (const path of targets) {
    options.log(`Checking ${path}/*`, 'CheckCleanPath');
    if (existsSync(path)) rmSync(path, { recursive: true, force: true });
    options.log(`Cleaned ${path}/*`, 'ConfirmCleanPath');
  }
  options.log('Finished cleaning all paths.', 'FinishedCleanPaths');
}
