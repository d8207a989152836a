/**
 * `replay --keep <file>`: where the simulated warehouse is saved, checked
 * before the replay starts, so hours of simulation never end in "unable to
 * open database". The file must be new; missing folders on the way are
 * created (as `--keep out/night.db` reads: "put it there"), but a file where
 * a folder should be is refused.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { engine } from '../engine/current-engine.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import type { Project } from '../project/project.js';
import { SCRATCH_SCHEMA_PREFIX } from '../analysis/scratch-schema.js';

/**
 * Where `--keep` saves the simulated warehouse: a new file where the
 * warehouse is a file; on a server database (PostgreSQL), a new schema of
 * the same database, holding what the scratch schema held (the copy's
 * target-schema tables and its run ledger).
 */
export function checkKeepTarget(given: string, project: Pick<Project, 'databasePath' | 'busyTimeoutMs' | 'target'>): { readonly path: string; prepare(): void } {
  return engine.inSchema ? checkKeepSchema(given, project) : checkKeepPath(given, project.databasePath);
}

/** A schema name that is new in the database: a plain identifier, not the target's, not a scratch one (E197, E198). */
function checkKeepSchema(given: string, project: Pick<Project, 'databasePath' | 'busyTimeoutMs' | 'target'>): { readonly path: string; prepare(): void } {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(given) || given.startsWith(SCRATCH_SCHEMA_PREFIX)) {
    throw new ProjectError(`--keep ${given}: on ${project.databasePath} the simulated warehouse is kept as a new schema of the database, and '${given}' cannot name one`, {
      hint: `name a new schema: lower-case letters, digits and _, at most 63, not starting with a digit or ${SCRATCH_SCHEMA_PREFIX}, e.g. --keep ${project.target.schema}_replay`,
    });
  }
  const db = openProjectWarehouse(project, { readonly: true });
  try {
    if (given === project.target.schema || db.attachedSchemas().includes(given)) {
      throw new ProjectError(`--keep ${given}: schema '${given}' exists in ${project.databasePath}${given === project.target.schema ? " (it is the target's schema)" : ''}; name a new schema`);
    }
  } finally {
    db.close();
  }
  return { path: given, prepare: () => undefined };
}

/** The absolute path to save to, after checking it; call `prepare` right before writing it. */
export function checkKeepPath(given: string, liveDatabase: string): { readonly path: string; prepare(): void } {
  const path = resolve(given);
  if (path === resolve(liveDatabase)) throw new ProjectError(`--keep ${given}: the file exists (it is the live warehouse); name a new file`);
  if (existsSync(path)) {
    const what = statSync(path).isDirectory() ? `is a folder; name a new file in it, e.g. --keep ${given.replace(/\/+$/, '')}/replay.db` : 'the file exists; name a new file';
    throw new ProjectError(`--keep ${given}: ${what}`);
  }
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new ProjectError(`--keep ${given}: ${dir} is a file, not a folder`);
      break;
    }
    if (dirname(dir) === dir) break;
  }
  return { path, prepare: () => mkdirSync(dirname(path), { recursive: true }) };
}
