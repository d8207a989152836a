import { backfillOfVars } from '../invocation/run-context.js';
import { askReason } from './ask-reason.js';
import { line } from './terminal.js';

/** What the ledger records for `run --vars '{start, end}'` in a script that gave no --reason. */
export const RUN_VARS_DEFAULT_REASON = 'run --vars start/end (no --reason given)';

/**
 * The reason a `run` records. With start and end vars the run is a backfill
 * of that range, so, as the backfill command does, it takes --reason or asks
 * on a terminal; a script without --reason is not refused (scripts ran it so
 * before), it records RUN_VARS_DEFAULT_REASON and says once how to say why.
 */
export async function runReason(given: string | undefined, vars: Readonly<Record<string, unknown>>): Promise<string | undefined> {
  const range = backfillOfVars(vars);
  if (range === undefined) return given === undefined ? undefined : askReason(given, 'run');
  const reason = await askReason(given, `backfill of ${range.start}..${range.end} (run with start/end vars)`, { scriptDefault: RUN_VARS_DEFAULT_REASON });
  if (given === undefined && reason === RUN_VARS_DEFAULT_REASON) {
    line(`a run with start/end vars rewrites ${range.start}..${range.end} (a backfill); recorded as "${RUN_VARS_DEFAULT_REASON}": --reason "..." records why`);
  }
  return reason;
}
