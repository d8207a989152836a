import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Manifest } from '../compile/manifest.js';
import { engine } from '../engine/current-engine.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import type { Project } from '../project/project.js';
import type { Target } from '../project/target.js';
import { scratchSchema } from './scratch-schema.js';

/** What a scratch copy needs of a session (the api's Session has these). */
export interface SessionLike {
  readonly project: Project;
  readonly manifest: Manifest;
}

export interface ScratchWarehouse<S extends SessionLike> {
  /** The copy's path (in a fresh temp folder), or its locator (a scratch schema of the same database). */
  readonly path: string;
  /** The same session, pointed at the copy: runs through it never touch the live file. */
  readonly session: S;
  /** Whether the live warehouse existed (and was copied). */
  readonly copied: boolean;
  /** Delete the copy and its folder (its schemas). */
  dispose(): void;
}

/** The same session with another warehouse file (and other files for the target's attached schemas). */
export function withDatabase<S extends SessionLike>(session: S, databasePath: string, target: Target = session.project.target): S {
  const project = { ...session.project, databasePath, target };
  return { ...session, project, manifest: { ...session.manifest, project } };
}

/**
 * A copy of the live warehouse that runs can write without touching it: a
 * file copy where the warehouse is a file, a scratch schema of the same
 * database on a server (scratch-schema.ts). The one place that tells them apart.
 */
export function scratchWarehouse<S extends SessionLike>(session: S): ScratchWarehouse<S> {
  return engine.inSchema ? scratchSchema(session, engine.inSchema) : scratchFile(session);
}

/**
 * A consistent copy of the live warehouse in a temp folder (VACUUM INTO from
 * a read-only connection: the live file is only read), or an empty file when
 * there is no live warehouse yet.
 */
function scratchFile<S extends SessionLike>(session: S): ScratchWarehouse<S> {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-scratch-'));
  const path = join(dir, 'scratch.db');
  const live = session.project.databasePath;
  const copied = existsSync(live);
  // The target's attached schemas are copied too, and the copy's target points at the copies (and at an
  // empty schema_directory of its own), so nothing a scratch run writes reaches a live file.
  const schemaPaths: Record<string, string> = {};
  if (copied) {
    const db = openProjectWarehouse(session.project, { readonly: true });
    try {
      db.copyTo(path);
      for (const schema of db.attachedSchemas().filter((s) => s !== 'main')) {
        schemaPaths[schema] = join(dir, `schema-${Object.keys(schemaPaths).length}.db`);
        db.copyTo(schemaPaths[schema], schema);
      }
    } finally {
      db.close();
    }
  }
  const target: Target = { ...session.project.target, schemaPaths, schemaDirectory: join(dir, 'schemas') };
  return {
    path,
    session: withDatabase(session, path, target),
    copied,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
