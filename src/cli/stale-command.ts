import { shellWord } from '../invocation/shell-word.js';
import { isIsoDate } from '../feed/iso-date.js';
import { hasTimeOfDay } from '../feed/iso-hour.js';
import { isIsoMonth } from '../feed/iso-month.js';
import { stale, type StaleReport } from '../api/stale.js';
import type { PartitionDiff } from '../analysis/diff-partitions.js';
import type { FastStalePartition } from '../analysis/fast-stale.js';
import { formatRange } from '../analysis/minimal-ranges.js';
import { previewValue } from '../errors/value-preview.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';

export interface StaleFlags extends CommonFlags {
  fast?: boolean;
  /** Exact mode: rebuild only the partitions the run ledger cannot vouch for. */
  candidates?: boolean;
  json?: boolean;
  /** Exit 1 when anything is stale, so a scheduler can alert on it. */
  failOnStale?: boolean;
}

/** stale <model>: the partitions that differ from a full rebuild, the ranges covering them, the fix. */
export function staleCommand(model: string, flags: StaleFlags): number {
  const report = stale({ ...sessionOptions(flags), model, mode: flags.fast ? 'fast' : 'exact', ...(flags.candidates ? { candidates: true } : {}) });
  const code = flags.failOnStale && report.stale.length > 0 ? 1 : 0;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return code;
  }
  process.stdout.write(`${renderStale(report).join('\n')}\n`);
  return code;
}

export function renderStale(report: StaleReport): string[] {
  const out: string[] = [];
  const asOf = report.as_of ? ` as of ${previewValue(report.as_of)}` : '';
  const how = report.mode === 'exact'
    ? typeof report.rebuilt_partitions === 'number'
      ? `exact: the ${report.rebuilt_partitions} partition(s) the run ledger cannot vouch for rebuilt${asOf} in a scratch table and compared; the others were trusted: last written under the same model definition, no raw row for them landed since (without --candidates every partition is compared with a full rebuild); the live table was only read`
      : `exact: compared with a full rebuild${asOf} built in a scratch table; the live table was only read`
    : `fast: from the run ledger and the raw rows landed by ${previewValue(report.as_of)}; nothing rebuilt`;
  const head = report.partition_column
    ? `${report.model}: ${report.stale.length} of ${report.partitions_checked} partitions stale (${how})`
    : `${report.model}: ${report.stale.length > 0 ? 'differs from' : 'equals'} a rebuild from its current parents (${how})`;
  out.push(colors.bold(report.stale.length > 0 ? colors.red(head) : colors.green(head)));
  if (report.schema_drift) {
    out.push(colors.yellow(`schema drift: only in the live table: ${report.schema_drift.only_live.join(', ') || '-'}; only in the model: ${report.schema_drift.only_rebuilt.join(', ') || '-'}`));
  }
  if (report.stale.length === 0) return [...out, ...renderNotFinal(report)];
  out.push('');
  if (report.mode === 'exact') {
    for (const d of report.partitions as PartitionDiff[]) out.push(`  ${previewValue(d.partition)}  ${describeDiff(d, report.partition_column)}`);
    if (report.totals && report.partition_column) {
      const { live, rebuilt } = report.totals;
      const cols = [...new Set([...Object.keys(live.sums), ...Object.keys(rebuilt.sums)])];
      out.push('');
      out.push(`totals over the stale partitions (live -> rebuilt): rows ${live.rows} -> ${rebuilt.rows}${cols.map((c) => `, ${c} ${num(live.sums[c] ?? 0)} -> ${num(rebuilt.sums[c] ?? 0)} (${signed((rebuilt.sums[c] ?? 0) - (live.sums[c] ?? 0))})`).join('')}`);
    }
  } else {
    out.push(colors.dim(`  partition   last written as of   late rows   landed`));
    for (const p of report.partitions as FastStalePartition[]) {
      const landed = p.first_loaded === p.last_loaded ? previewValue(p.first_loaded) : `${previewValue(p.first_loaded)}..${previewValue(p.last_loaded)}`;
      out.push(`  ${previewValue(p.partition).padEnd(10)}  ${(p.last_as_of === null ? 'never written' : previewValue(p.last_as_of)).padEnd(19)}  ${String(p.late_rows).padStart(9)}   ${landed}`);
    }
  }
  if (report.partition_column) {
    out.push('');
    out.push(`ranges covering them (${report.ranges.length}): ${report.ranges.map((r) => previewValue(formatRange(r), 100)).join(', ')}`);
  }
  if (report.backfill_command) {
    out.push(colors.bold(`fix: ${previewValue(report.backfill_command, 200)}`));
    const c = report.covering_range;
    // --start/--end take dates, hours and months; other partitions (a store id) go through --stale only.
    if (c && report.ranges.length > 1 && [c.start, c.end].every((b) => isIsoDate(b) || isIsoMonth(b) || hasTimeOfDay(b))) out.push(`  or one range (${c.partitions} partitions): mini-dbt backfill ${report.model} --start ${shellWord(previewValue(c.start))} --end ${shellWord(previewValue(c.end))} --reason "<why>"`);
  }
  return [...out, ...renderNotFinal(report)];
}

const MONTHS_SHOWN = 12;

/** Not final until: the recent days rows may still land for, and each month's date. */
function renderNotFinal(report: StaleReport): string[] {
  const n = report.not_final;
  if (!n) return [];
  const head = `rows land up to ${n.longest_lateness_days} day(s) late in ${n.inputs.join(', ')} (the longest lateness landed by ${n.as_of})`;
  if (n.partitions.length === 0) return ['', `not final: nothing (${head})`];
  const first = n.partitions[0]!;
  const last = n.partitions[n.partitions.length - 1]!;
  return [
    '',
    `not final yet: ${n.partitions_not_listed > 0 ? `${n.partitions_not_listed} earlier day(s) and ` : ''}${first.partition}..${last.partition}, each until its day + ${n.longest_lateness_days} (${first.partition} until ${first.final_after}, ..., ${last.partition} until ${last.final_after}); ${head}`,
    // The latest months (a feed with an absurdly late row would list thousands); --json has them all.
    ...n.months.slice(-MONTHS_SHOWN).map((m) => `  ${m.month} is not final until ${m.final_after}`),
    ...(n.months.length > MONTHS_SHOWN ? [`  and ${n.months.length - MONTHS_SHOWN} earlier month(s) (--json lists them)`] : []),
  ];
}

/** One partition's change, column by column: `revenue 6991.42 -> 6275.22 (-716.20)`. */
export function describeDiff(d: PartitionDiff, partitionColumn: string | null): string {
  if (d.live.length === 0) return `missing from the live table (rebuild has ${d.rebuilt.length} row${d.rebuilt.length === 1 ? '' : 's'})`;
  if (d.rebuilt.length === 0) return `${d.live.length} live row(s) a rebuild does not have`;
  if (d.live.length !== 1 || d.rebuilt.length !== 1) return `live has ${d.live.length} row(s), a rebuild ${d.rebuilt.length}`;
  const [live, rebuilt] = [d.live[0]!, d.rebuilt[0]!];
  const changed = Object.keys(rebuilt).filter((c) => c !== partitionColumn && live[c] !== rebuilt[c]);
  return changed.map((c) => {
    const a = live[c];
    const b = rebuilt[c];
    const delta = typeof a === 'number' && typeof b === 'number' ? ` (${signed(b - a)})` : '';
    return `${c} ${previewValue(fmt(a))} -> ${previewValue(fmt(b))}${delta}`;
  }).join(', ');
}

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const signed = (n: number) => `${n >= 0 ? '+' : ''}${num(Math.round(n * 100) / 100)}`;
const fmt = (v: unknown) => (typeof v === 'number' ? num(v) : v === null ? 'NULL' : String(v));
