import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Session } from '../api/session.js';
import { openWarehouse } from '../db/open-warehouse.js';

export interface ScratchWarehouse {
  /** The copy's path (in a fresh temp folder). */
  readonly path: string;
  /** The same session, pointed at the copy: runs through it never touch the live file. */
  readonly session: Session;
  /** Whether the live warehouse existed (and was copied). */
  readonly copied: boolean;
  /** Delete the copy and its folder. */
  dispose(): void;
}

/** The same session with another warehouse file. */
export function withDatabase(session: Session, databasePath: string): Session {
  const project = { ...session.project, databasePath };
  return { ...session, project, manifest: { ...session.manifest, project } };
}

/**
 * A consistent copy of the live warehouse in a temp folder (VACUUM INTO from
 * a read-only connection: the live file is only read), or an empty file when
 * there is no live warehouse yet.
 */
export function scratchWarehouse(session: Session): ScratchWarehouse {
  const dir = mkdtempSync(join(tmpdir(), 'mini-dbt-scratch-'));
  const path = join(dir, 'scratch.db');
  const live = session.project.databasePath;
  const copied = existsSync(live);
  if (copied) {
    const db = openWarehouse(live, { readonly: true });
    try {
      db.prepare('vacuum into ?').run(path);
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
