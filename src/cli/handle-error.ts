import { isBusyError } from '../engine/open-warehouse.js';
import { isProjectError } from '../errors/project-error.js';
import { colors } from './terminal.js';

/** Expected errors: one message, no stack, their exit code. Bugs: the stack, exit 2. */
export function handleError(err: unknown): number {
  if (isProjectError(err)) {
    process.stderr.write(`${colors.red('Error:')} ${err.format()}\n`);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  if (isBusyError(e)) {
    process.stderr.write(`${colors.red('Error:')} the warehouse is locked by another process (${e.message}); try again, or raise --busy-timeout\n`);
    return 2;
  }
  process.stderr.write(`${colors.red('Internal error (a bug in mini-dbt):')}\n${e.stack ?? e.message}\n`);
  return 2;
}
