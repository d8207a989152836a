import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { parseOperationArgs } from '../api/operation-args.js';
import { runOperation } from '../api/run-operation.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { line, printLine } from './terminal.js';

export interface RunOperationFlags extends CommonFlags {
  args?: string;
}


/** run-operation MACRO --args '{...}': dbt's lines, the macro's log() output, exit 0 (1 when the macro fails). */
export function runOperationCommand(macro: string, flags: RunOperationFlags): number {
  const args = parseOperationArgs(flags.args);
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  runOperation({ ...sessionOptions(flags), macro, args, log: (message) => line(message), debug: (message) => line(message, { level: 'debug' }), print: printLine });
  return 0;
}
