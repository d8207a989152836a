import { history } from '../api/history.js';
import type { HistoryEntry } from '../analysis/partition-history.js';
import { ProjectError } from '../errors/project-error.js';
import { previewValue } from '../errors/value-preview.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';

export interface HistoryFlags extends CommonFlags {
  partition?: string;
  limit?: string;
  json?: boolean;
}

/** history <model> [--partition D]: when, why and from which as-of it was written, from the run ledger. */
export function historyCommand(model: string, flags: HistoryFlags): number {
  let limit: number | undefined;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!/^\d+$/.test(flags.limit) || limit < 1) throw new ProjectError(`--limit must be a positive whole number, got '${flags.limit}'`);
  }
  const result = history({ ...sessionOptions(flags), model, partition: flags.partition, limit });
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const out: string[] = [];
  const subject = result.partition ? `partition ${result.partition} of ${result.model}` : result.model;
  const last = result.last_written;
  if (!last) {
    out.push(colors.yellow(`${subject}: no successful write recorded in the run ledger`));
  } else {
    out.push(colors.bold(`${subject} was last written ${last.started_at} by \`${last.command_line}\` (${last.mode}${last.strategy ? `, ${last.strategy}` : ''}) as of ${last.as_of === null ? 'unknown' : previewValue(last.as_of)}`));
    out.push(`  why: ${last.run_reason ?? colors.dim('(no reason recorded)')}; mode: ${last.mode_reason ?? '-'}`);
  }
  if (result.entries.length > 0) {
    out.push('');
    // As-ofs and windows are dates, or dates and times for hourly partitions: the columns fit the longest.
    const widths = {
      asOf: Math.max(10, ...result.entries.map((e) => asOfCell(e).length)),
      window: Math.max(22, ...result.entries.map((e) => windowCell(e).length)),
    };
    out.push(colors.dim(`${'started (UTC)'.padEnd(24)} ${'command'.padEnd(9)} ${'mode'.padEnd(11)} ${'as of'.padEnd(widths.asOf)} ${'window'.padEnd(widths.window)} ${'parts'.padStart(5)} ${'del'.padStart(5)} ${'ins'.padStart(5)}  status   reason`));
    for (const e of result.entries) out.push(entryLine(e, widths));
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

const windowCell = (e: HistoryEntry): string =>
  e.window_start ? (e.window_start === e.window_end ? previewValue(e.window_start) : `${previewValue(e.window_start)}..${previewValue(e.window_end)}`) : (e.vars.start != null ? `${previewValue(e.vars.start)}..${previewValue(e.vars.end)}` : '-');

const asOfCell = (e: HistoryEntry): string => (e.as_of === null ? '-' : previewValue(e.as_of));

function entryLine(e: HistoryEntry, widths: { readonly asOf: number; readonly window: number }): string {
  const status = e.status === 'success' ? colors.green('success') : colors.red(e.status.padEnd(7));
  const cells = [
    e.started_at.padEnd(24), e.command.padEnd(9), e.mode.padEnd(11), asOfCell(e).padEnd(widths.asOf), windowCell(e).padEnd(widths.window),
    String(e.partitions_written).padStart(5), String(e.rows_deleted).padStart(5), String(e.rows_inserted).padStart(5),
  ];
  const message = e.status !== 'success' && e.message ? colors.red(` ${e.message.split('\n')[0]}`) : '';
  return `${cells.join(' ')}  ${status}  ${e.run_reason ?? ''}${message}`;
}
