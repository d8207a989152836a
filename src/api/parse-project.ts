import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { writeArtifact } from '../state/artifact-write-error.js';
import { manifestJson } from '../state/manifest-json.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

/**
 * dbt's `parse`: load and capture the whole project (every template rendered,
 * every yml read, refs resolved, the parse cache written) and write
 * target/manifest.json; nothing touches the warehouse. A parse error is the
 * command's error, as in dbt.
 */
export function parseProject(options: SessionOptions = {}): { readonly session: Session; readonly manifestPath: string } {
  const session = loadSession(options);
  const { project, manifest, graph } = session;
  // Packages' macro files compile on first use elsewhere; parse checks every one, as dbt's does.
  manifest.jinja.compileAllMacros();
  const manifestPath = join(project.root, project.paths.target, 'manifest.json');
  writeArtifact(project.root, manifestPath, `${JSON.stringify(manifestJson(manifest, graph, randomUUID()), null, 2)}\n`);
  return { session, manifestPath };
}
