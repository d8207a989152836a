import { isBusyError } from '../engine/open-warehouse.js';
import { explainWarehouseError } from '../engine/explain-warehouse-error.js';
import { isProjectError } from '../errors/project-error.js';
import { colors, formatEvent, outputSettings } from './terminal.js';

/** Expected errors: one message, no stack, their exit code. Bugs: the stack, exit 2. */
export function handleError(raised: unknown): number {
  // A server's lost connection or refused privilege is expected: one message, no stack.
  const err = explainWarehouseError(raised);
  const { format, level } = outputSettings();
  if (format === 'json') {
    // --log-format json: the error is one more event line on stdout, as dbt logs it.
    const message = isProjectError(err) ? err.format() : err instanceof Error ? (err.stack ?? err.message) : String(err);
    const formatted = formatEvent(`Error: ${message}`, 'error', 'MainEncounteredError');
    if (formatted !== undefined) process.stdout.write(`${formatted}\n`);
    return isProjectError(err) ? err.exitCode : 2;
  }
  if (isProjectError(err)) {
    process.stderr.write(`${colors.red('Error:')} ${err.format()}\n`);
    // --debug: where it was raised, too.
    if (level === 'debug' && err.stack) process.stderr.write(`${err.stack}\n`);
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
