import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

/** What the lesson needs of the project: the story's incremental model and its raw seed. */
export const LESSON_MODEL = 'daily_revenue';
export const LESSON_SEED = 'raw_orders';

export interface LessonProject {
  /** The scratch copy's folder (the learner's project is only read). */
  readonly dir: string;
  readonly session: Session;
  /** The scratch warehouse file. */
  readonly database: string;
  /** Remove the copy (unless it is kept). */
  dispose(): void;
}

/**
 * A scratch copy of the project (its project file, model, macro, seed,
 * snapshot and test folders; no warehouse, no target/) in a temp folder, or
 * in `keep` when given: the lesson runs every command there, so the
 * learner's own warehouse is never touched. Refuses a project that is not
 * the story's (no daily_revenue model or raw_orders seed).
 */
export function lessonProject(options: SessionOptions & { readonly keep?: string }): LessonProject {
  // Only read: no parse cache is written into the learner's project.
  const source = loadSession({ ...options, partialParse: false });
  const { project, manifest } = source;
  if (!manifest.models.has(LESSON_MODEL) || !manifest.seeds.has(LESSON_SEED)) {
    throw new ProjectError(`the lesson runs on the example project (a model '${LESSON_MODEL}' and a seed '${LESSON_SEED}'); ${project.root} has ${manifest.models.has(LESSON_MODEL) ? 'no seed' : 'no model'} of that name`, {
      hint: 'run it from a clone of mini-dbt (the repository is the example project), or pass --project-dir to it',
    });
  }
  if (options.keep !== undefined && existsSync(options.keep)) throw new ProjectError(`--keep ${options.keep}: it already exists; the lesson writes a new folder`);
  const dir = options.keep !== undefined ? resolve(options.keep) : mkdtempSync(join(tmpdir(), 'mini-dbt-lesson-'));
  const folders = [...project.paths.models, ...project.paths.seeds, ...project.paths.macros, ...project.paths.tests, ...(project.paths.snapshots ?? [])];
  for (const entry of [project.configFile, ...new Set(folders)]) {
    const from = join(project.root, entry);
    if (existsSync(from)) cpSync(from, join(dir, entry), { recursive: true });
  }
  const database = join(dir, 'warehouse.db');
  const session = loadSession({ projectDir: dir, database });
  return {
    dir,
    session,
    database,
    dispose: () => {
      if (options.keep === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
