import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { openProjectWarehouse, openWarehouse } from '../engine/open-warehouse.js';
import { useTargetEngine } from '../engine/current-engine.js';
import { ProjectError } from '../errors/project-error.js';
import { profileRenderer } from '../parse/render-yml.js';
import { loadProjectFile } from '../project/load-project-file.js';
import { loadTarget } from '../project/load-target.js';
import type { Target } from '../project/target.js';
import type { SessionOptions } from './session.js';

/** One of dbt debug's checks: what was found, or why it failed. */
export interface DebugCheck {
  readonly ok: boolean;
  /** What the check found (a file path), or the error, as one message (file:line when known). */
  readonly detail: string;
}

/** What `mini-dbt debug` reports, as dbt's debug: versions, the project file, the profile and its target, a connection test. */
export interface DebugReport {
  readonly versions: { readonly node: string; readonly sqlite: string; readonly os: string };
  /** The project file: its path, or why it is missing or invalid. */
  readonly project: DebugCheck;
  /** profiles.yml: its path (undefined without one: the project's database file is the target), or why the profile fails. */
  readonly profiles?: DebugCheck;
  /** The target in use, once the profile (or its absence) resolved. */
  readonly target?: Target;
  /** The main database file (the target's `schemas_and_paths.main`, the project's `database:`, or --database). */
  readonly database?: string;
  /** Opening the warehouse (undefined when an earlier check failed). */
  readonly connection?: DebugCheck;
  /** The messages of the checks that failed. */
  readonly failures: readonly string[];
}

const message = (err: unknown): string => (err instanceof ProjectError ? err.format() : err instanceof Error ? err.message : String(err));

function sqliteVersion(): string {
  const db = openWarehouse(':memory:');
  try {
    return String(db.value('select sqlite_version()'));
  } finally {
    db.close();
  }
}

/** Open the warehouse read-only and run `select 1`; a file not created yet passes when its folder exists (the first run creates it). */
function connectionTest(project: Parameters<typeof openProjectWarehouse>[0]): DebugCheck {
  if (project.target?.postgres) return serverConnectionTest(project);
  if (!existsSync(project.databasePath)) {
    const folder = dirname(project.databasePath);
    return existsSync(folder) && statSync(folder).isDirectory()
      ? { ok: true, detail: `${project.databasePath} does not exist yet: the first seed, run or build creates it` }
      : { ok: false, detail: `cannot create ${project.databasePath}: its folder ${folder} does not exist` };
  }
  try {
    const db = openProjectWarehouse(project, { readonly: true });
    try {
      db.value('select 1');
    } finally {
      db.close();
    }
    return { ok: true, detail: 'connection ok' };
  } catch (err) {
    return { ok: false, detail: message(err) };
  }
}

/** A server's test, as dbt-postgres's: connect (the target's schema is created if missing, as a run would) and `select 1`. */
function serverConnectionTest(project: Parameters<typeof openProjectWarehouse>[0]): DebugCheck {
  try {
    const db = openProjectWarehouse(project);
    try {
      db.value('select 1');
      return { ok: true, detail: `connection ok (${String(db.value('select version()')).split(' on ')[0]})` };
    } finally {
      db.close();
    }
  } catch (err) {
    return { ok: false, detail: message(err) };
  }
}

/**
 * dbt's `debug`: is the project file there and valid, which profiles.yml and target are used, and can the
 * warehouse be opened. Nothing is written; the warehouse is opened read-only.
 */
export function debugProject(options: SessionOptions = {}): DebugReport {
  // SQLite's version is the embedded library's, whatever the target.
  useTargetEngine({ type: 'sqlite', schema: 'main' });
  const versions = { node: process.version, sqlite: sqliteVersion(), os: `${process.platform} ${process.arch}` };
  const root = resolve(options.projectDir ?? process.cwd());
  const failures: string[] = [];
  let projectFile: ReturnType<typeof loadProjectFile>;
  try {
    projectFile = loadProjectFile(root);
  } catch (err) {
    failures.push(`Project loading failed: ${message(err)}`);
    return { versions, project: { ok: false, detail: message(err) }, failures };
  }
  const projectPath = join(root, projectFile.file);
  const profileOptions = { profilesDir: options.profilesDir, profile: options.profile, target: options.target, render: profileRenderer(options.vars ?? {}) };
  let resolved: ReturnType<typeof loadTarget>;
  try {
    resolved = loadTarget(root, typeof projectFile.config.profile === 'string' ? projectFile.config.profile : undefined, profileOptions);
  } catch (err) {
    failures.push(`Profile loading failed: ${message(err)}`);
    return { versions, project: { ok: true, detail: projectPath }, profiles: { ok: false, detail: message(err) }, failures };
  }
  const { target } = resolved;
  useTargetEngine(target);
  const profiles = target.profilesFile === undefined ? undefined : { ok: true, detail: target.profilesFile };
  // loadProject's rule (without parsing models, as dbt's debug does not): --database, else the target's main file, else `database:`.
  const configured = projectFile.config.database ?? 'warehouse.db';
  const database = options.database !== undefined ? resolve(options.database) : resolved.mainPath ?? (isAbsolute(configured) ? configured : resolve(root, configured));
  const project = { databasePath: database, target, busyTimeoutMs: options.busyTimeoutMs ?? projectFile.config['busy-timeout'] };
  const connection = connectionTest(project);
  if (!connection.ok) failures.push(`Connection test failed: ${connection.detail}`);
  return { versions, project: { ok: true, detail: projectPath }, profiles, target, database, connection, failures };
}
