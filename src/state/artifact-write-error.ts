/**
 * Failures writing target/ (manifest.json, run_results.json, compiled/,
 * run/, the docs site) as user errors: which file, and the system's reason
 * without the absolute path. After a run they come too late to undo
 * anything, so `afterPublish` says the warehouse already has the results.
 */
import { relative } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { writeFileAtomically, type FileWriter } from './write-file-atomically.js';

export class ArtifactWriteError extends ProjectError {
  constructor(
    readonly shownPath: string,
    readonly reason: string,
  ) {
    super(`writing ${shownPath} failed: ${reason}`, { hint: 'check that target/ is a writable folder with free space' });
  }
}

/** Write one artifact under the project root; any failure becomes an ArtifactWriteError. */
export function writeArtifact(root: string, path: string, text: string, writer?: FileWriter): void {
  try {
    writeFileAtomically(path, text, writer);
  } catch (err) {
    throw new ArtifactWriteError(relative(root, path) || path, systemReason(err));
  }
}

/** Artifacts written after the publish committed: a failure says the warehouse already holds the run. */
export function afterPublish<T>(write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (!(err instanceof ArtifactWriteError)) throw err;
    throw new ProjectError(`the run is over and what it built is committed to the warehouse; writing ${err.shownPath} failed: ${err.reason}`, {
      hint: 'the warehouse is fine; make target/ a writable folder with free space, and the next command writes the artifacts again',
    });
  }
}

/** "ENOSPC: no space left on device" from "ENOSPC: no space left on device, write '/abs/path'". */
function systemReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, '');
}
