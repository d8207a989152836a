import { modelDeprecationWarnings } from '../compile/model-deprecations.js';
import { warnUser } from '../errors/user-warning.js';
import type { Session } from './session.js';

/** Each warning once per process: a backfill or a replay runs the engine many times over the same nodes. */
const warned = new Set<string>();

/** Warn (stderr) about deprecated models among those a run builds and the deprecated models they ref, as of the run's start. */
export function warnModelDeprecations(manifest: Session['manifest'], nodeIds: readonly string[], startedAt: Date): void {
  for (const warning of modelDeprecationWarnings(manifest, nodeIds, startedAt)) {
    if (warned.has(warning.message)) continue;
    warned.add(warning.message);
    warnUser(warning.message, warning.event);
  }
}
