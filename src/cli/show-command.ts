import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { show } from '../api/show.js';
import { ProjectError } from '../errors/project-error.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { showRecords, showTable } from './show-table.js';
import { line } from './terminal.js';

export interface ShowFlags extends CommonFlags {
  select?: string[];
  inline?: string;
  limit?: string;
  output?: string;
}


/**
 * show: a model's, seed's or inline query's first rows, as dbt prints them. The heading and the
 * `Running with` line are log lines (--quiet hides them); the table or the JSON is always printed.
 */
export function showCommand(flags: ShowFlags): number {
  const output = flags.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new ProjectError(`unknown --output '${output}'; valid: text, json`);
  let limit: number | undefined;
  if (flags.limit !== undefined) {
    if (!/^\s*-?\d+\s*$/.test(flags.limit)) throw new ProjectError(`--limit must be a whole number (-1 for every row), got '${flags.limit}'`);
    limit = Number(flags.limit);
  }
  const select = flags.select?.flatMap((s) => s.split(/\s+/)).filter((s) => s !== '');
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  const previews = show({ ...sessionOptions(flags), select, inline: flags.inline, limit, log: (message) => line(message) });
  for (const p of previews) {
    if (output === 'json') {
      // dbt's ShowNode: {"node": name, "show": [...]}; an inline query has no node name.
      const shape = p.node === undefined ? { show: showRecords(p.columns, p.rows) } : { node: p.node, show: showRecords(p.columns, p.rows) };
      process.stdout.write(`${JSON.stringify(shape, null, 2)}\n`);
      continue;
    }
    line(p.node === undefined ? 'Previewing inline node:' : `Previewing node '${p.node}':`, { name: 'ShowNode' });
    process.stdout.write(`${showTable(p.columns, p.rows)}\n`);
  }
  return 0;
}
