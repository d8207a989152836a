import { ProjectError } from '../errors/project-error.js';
import { engine } from './current-engine.js';

/**
 * An error the warehouse raised that is the user's to act on (a server
 * connection lost, a privilege refused...) as an expected error: one message
 * naming where, a hint, no stack. Anything else comes back unchanged.
 */
export function explainWarehouseError(err: unknown): unknown {
  if (err instanceof ProjectError) return err;
  const explained = engine.explainError?.(err);
  return explained ? new ProjectError(explained.message, { hint: explained.hint }) : err;
}
