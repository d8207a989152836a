import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import type { Project } from '../project/project.js';

/** What a scratch copy needs of a session (the api's Session has these). */
interface SessionLike {
  readonly project: Project;
  readonly manifest: Manifest;
}

export interface ScratchWarehouse<S extends SessionLike> {
  /** The copy's path (in a fresh temp folder). */
  readonly path: string;
  /** The same session, pointed at the copy: runs through it never touch the live file. */
  readonly session: S;
  /** Whether the live warehouse existed (and was copied). */
  readonly copied: boolean;
  /** Delete the copy and its folder. */
  dispose(): void;
}

/** The same session with another warehouse file. */
export function withDatabase<S extends SessionLike>(session: S, databasePath: string): S {
  const project = { ...session.project, databasePath };
  return { ...session, project, manifest: { ...session.manifest, project } };
}

/**
 * A consistent copy of the live warehouse in a temp folder (VACUUM INTO from
 * a read-only connection: the live file is only read), or an empty file when
 * there is no live warehouse yet.
 */
export function scratchWarehouse<S extends SessionLike>(session: S): ScratchWarehouse<S> {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-scratch-'));
  const path = join(dir, 'scratch.db');
  const live = session.project.databasePath;
  const copied = existsSync(live);
  if (copied) {
    const db = openProjectWarehouse(session.project, { readonly: true });
    try {
      db.copyTo(path);
    } finally {
      db.close();
    }
  }
  return {
    path,
    session: withDatabase(session, path),
    copied,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
