import { backfill, type BackfillRange, type BackfillResult } from '../api/backfill.js';
import { prewarmNextConnection } from '../engine/current-engine.js';
import { loadSession } from '../api/session.js';
import { findModel } from '../analysis/find-node.js';
import type { Totals } from '../analysis/range-totals.js';
import type { BackfillCheck } from '../analysis/check-statuses.js';
import { describeDiff } from './stale-command.js';
import { askReason } from './ask-reason.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { printEvent } from './print-run.js';
import { colors, line } from './terminal.js';

export interface BackfillFlags extends CommonFlags {
  start?: string;
  end?: string;
  stale?: boolean;
  fast?: boolean;
  keys?: string;
  keyColumn?: string;
  reason?: string;
  dryRun?: boolean;
  select?: string[];
  json?: boolean;
}

/** backfill <model>: rewrite a range (or the stale ranges) with everything landed so far. */
export async function backfillCommand(model: string, flags: BackfillFlags): Promise<number> {
  // The warehouse is opened next: a server engine may start connecting while the project loads.
  prewarmNextConnection();
  const options = sessionOptions(flags);
  const session = loadSession(options);
  findModel(session.manifest, model); // an unknown name fails before asking for a reason
  const reason = flags.dryRun ? flags.reason : await askReason(flags.reason, 'backfill');
  const result = await backfill({
    ...options,
    session,
    model,
    start: flags.start,
    end: flags.end,
    stale: flags.stale,
    staleMode: flags.fast ? 'fast' : 'exact',
    ...(flags.keys !== undefined ? { keys: flags.keys.split(',') } : {}),
    ...(flags.keyColumn !== undefined ? { keyColumn: flags.keyColumn } : {}),
    reason,
    dryRun: flags.dryRun,
    select: flags.select,
    commandLine: ['mini-dbt', ...process.argv.slice(2)].map(shellQuote).join(' '),
    onEvent: flags.json ? undefined : printEvent,
  });
  if (flags.json) {
    const { runs, ...rest } = result;
    process.stdout.write(`${JSON.stringify({ ...rest, invocation_ids: runs.map((r) => r.invocationId) }, null, 2)}\n`);
    return result.exitCode;
  }
  printBackfill(result);
  return result.exitCode;
}

function printBackfill(r: BackfillResult): void {
  line();
  if (r.ranges.length === 0) {
    line(colors.green(`${r.model}: nothing is stale, nothing to backfill`));
    return;
  }
  const title = r.dryRun ? 'Backfill plan (dry run: nothing is written)' : 'Backfill';
  line(colors.bold(`${title} of ${r.model} on ${r.partitionColumn}, as of ${r.asOf ?? 'everything landed'} (everything landed so far)`));
  if (r.reason) line(`reason: ${r.reason}`);
  if (r.keys) {
    const shown = r.keys.keys.slice(0, 10).map((k) => `${k.key} (${k.partitions.join(', ')})`).join(', ');
    line(`keys: ${r.keys.keyColumn} in ${r.keys.inputs.join(', ')}: ${shown}${r.keys.keys.length > 10 ? `, ... (${r.keys.keys.length} keys)` : ''} -> ${r.keys.partitions.length} partition(s)`);
  }
  for (const range of r.ranges) printRange(range);
  const message = r.ranges.find((x) => x.message)?.message;
  if (message) for (const l of message.split('\n')) line(colors.red(`    ${l}`));
  if (r.checks.length > 0) {
    line(`checks and audits${r.ranges.length > 1 ? ` (one transaction for all ${r.ranges.length} ranges)` : ''}:`);
    for (const c of r.checks) line(`  ${checkStatus(c)} ${c.name}${c.status === 'planned' && c.name.startsWith('audit ') ? ' (runs inside the publish)' : ''}${c.detail ? `: ${c.detail}` : ''}`);
  }
  if (r.changes) printChanges(r);
  const counted = r.dryRun ? r.ranges : r.ranges.filter((x) => x.status === 'success');
  const partitions = counted.reduce((n, x) => n + x.partitions.length, 0);
  const raw = r.cost?.rawRows ?? counted.reduce((n, x) => n + x.rawRows, 0);
  const full = r.cost?.fullRebuildRawRows ?? r.ranges[0]?.fullReloadRawRows ?? 0;
  const cost = full > 0 ? ` of the ${full} a full rebuild reads (${((100 * raw) / full).toFixed(1)}%)` : '';
  line(`${r.dryRun ? 'will rewrite' : 'rewrote'} ${partitions} partition(s) in ${counted.length} of ${r.ranges.length} range(s), reading ${raw} raw row(s)${cost}`);
  if (r.cost) line(`why: ${r.cost.reason}`);
  for (const d of r.downstream) {
    const state = d.rebuilt ? colors.green('rebuilt in this command')
      : d.materialized === 'view' ? 'a view: always reads the current numbers'
      : d.stale === null ? (r.dryRun ? colors.yellow(`will be stale after the backfill; add --select ${r.model}+ to rebuild it`) : 'not built yet')
      : d.stale ? colors.red(`STALE: built from the old numbers; rebuild: mini-dbt run --select ${d.name} (or backfill with --select ${r.model}+)`)
      : 'up to date';
    line(`downstream ${d.name} (${d.materialized}): ${state}`);
  }
  if (r.dryRun) {
    for (const c of r.equivalentCommands) line(colors.dim(`equivalent: ${c}`));
  } else if (r.runs.length > 0) {
    line(colors.dim(`recorded in the run ledger as one backfill run (${r.runs[0]!.invocationId}); see mini-dbt history ${r.model}`));
    if (r.exitCode === 0) {
      line(colors.green('Completed successfully'));
    } else {
      line(colors.red(`Backfill failed: nothing was published${r.ranges.length > 1 ? ` (all ${r.ranges.length} ranges are one transaction)` : ''}; every partition is exactly as it was`));
    }
  }
}

function checkStatus(c: BackfillCheck): string {
  switch (c.status) {
    case 'pass': return colors.green('PASS');
    case 'warn': return colors.yellow('WARN');
    case 'fail': return colors.red('FAIL');
    case 'not run': return colors.yellow('NOT RUN');
    default: return 'PLANNED';
  }
}

/** Partitions whose change the text output lists (the totals cover all of them). */
const SHOWN_CHANGES = 30;

/** The stale diff on the range: each partition that changes, then the totals over them. */
function printChanges(r: BackfillResult): void {
  const changes = r.changes!;
  line(`predicted change (live -> after the backfill): ${changes.partitions.length} of ${changes.partitionsCompared} partition(s) change`);
  for (const d of changes.partitions.slice(0, SHOWN_CHANGES)) line(`  ${d.partition}  ${describeDiff(d, r.partitionColumn)}`);
  if (changes.partitions.length > SHOWN_CHANGES) line(colors.dim(`  ... ${changes.partitions.length - SHOWN_CHANGES} more (--json lists every one)`));
  const { live, after } = changes.totals;
  const cols = [...new Set([...Object.keys(live.sums), ...Object.keys(after.sums)])];
  if (changes.partitions.length > 0) {
    line(`total change over them: rows ${live.rows} -> ${after.rows}${cols.map((c) => `, ${c} ${round(live.sums[c] ?? 0)} -> ${round(after.sums[c] ?? 0)} (${signed((after.sums[c] ?? 0) - (live.sums[c] ?? 0))})`).join('')}`);
  }
}

function printRange(x: BackfillRange): void {
  const span = x.start === x.end ? x.start : `${x.start}..${x.end}`;
  const status = x.status === 'success' ? colors.green('OK') : x.status === 'error' ? colors.red('ERROR') : x.status === 'not run' ? colors.yellow('NOT RUN') : 'plan';
  const what = x.status === 'planned' ? 'would stage' : 'staged';
  const staged = x.status === 'error' || x.status === 'not run' ? `reads ${x.rawRows} raw row(s)` : `${x.partitions.length} partition(s), ${x.rows} row(s) ${what} from ${x.rawRows} raw row(s)`;
  line(`  ${span} [${status}]: ${staged}`);
  line(`    before: ${totals(x.before)}`);
  if (x.after) line(`    after:  ${totals(x.after, x.before)}`);
}

function totals(t: Totals, before?: Totals): string {
  const parts = [`${t.rows} row(s)`];
  for (const [c, v] of Object.entries(t.sums)) {
    const was = before?.sums[c];
    const delta = was !== undefined && was !== v ? ` (${v - was >= 0 ? '+' : ''}${round(v - was)})` : '';
    parts.push(`${c} ${round(v)}${delta}`);
  }
  return parts.join(', ');
}

const round = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const signed = (n: number) => `${n >= 0 ? '+' : ''}${round(Math.round(n * 100) / 100)}`;

/** An argument as a shell would need it typed (for the ledger's command line). */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
