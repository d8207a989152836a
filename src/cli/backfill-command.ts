import { backfill, type BackfillRange, type BackfillResult } from '../api/backfill.js';
import { loadSession } from '../api/session.js';
import { findModel } from '../analysis/find-node.js';
import type { Totals } from '../analysis/range-totals.js';
import { askReason } from './ask-reason.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { printEvent } from './print-run.js';
import { colors, line } from './terminal.js';

export interface BackfillFlags extends CommonFlags {
  start?: string;
  end?: string;
  stale?: boolean;
  fast?: boolean;
  reason?: string;
  dryRun?: boolean;
  select?: string[];
  json?: boolean;
}

/** backfill <model>: rewrite a range (or the stale ranges) with everything landed so far. */
export async function backfillCommand(model: string, flags: BackfillFlags): Promise<number> {
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
  for (const range of r.ranges) printRange(range);
  const counted = r.dryRun ? r.ranges : r.ranges.filter((x) => x.status === 'success');
  const partitions = counted.reduce((n, x) => n + x.partitions.length, 0);
  const raw = counted.reduce((n, x) => n + x.rawRows, 0);
  const full = r.ranges[0]?.fullReloadRawRows ?? 0;
  const cost = full > 0 ? ` of the ${full} a full reload reads (${((100 * raw) / full).toFixed(1)}%)` : '';
  line(`${r.dryRun ? 'will rewrite' : 'rewrote'} ${partitions} partition(s) in ${counted.length} of ${r.ranges.length} range(s), reading ${raw} raw row(s)${cost}`);
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
    const ids = r.runs.map((x) => x.invocationId);
    line(colors.dim(`recorded in the run ledger as ${ids.length} backfill run(s) (${ids.length === 1 ? ids[0] : `${ids[0]} ... ${ids[ids.length - 1]}`}); see mini-dbt history ${r.model}`));
    if (r.exitCode === 0) {
      line(colors.green('Completed successfully'));
    } else {
      const published = r.ranges.filter((x) => x.status === 'success').length;
      line(colors.red(`Backfill failed: the failed range was rolled back, its partitions are as they were${published > 0 ? `; the ${published} range(s) before it are published` : ''}`));
    }
  }
}

function printRange(x: BackfillRange): void {
  const span = x.start === x.end ? x.start : `${x.start}..${x.end}`;
  const status = x.status === 'success' ? colors.green('OK') : x.status === 'error' ? colors.red('ERROR') : x.status === 'not run' ? colors.yellow('NOT RUN') : 'plan';
  const what = x.status === 'planned' ? 'would stage' : 'staged';
  const staged = x.status === 'error' || x.status === 'not run' ? `reads ${x.rawRows} raw row(s)` : `${x.partitions.length} partition(s), ${x.rows} row(s) ${what} from ${x.rawRows} raw row(s)`;
  line(`  ${span} [${status}]: ${staged}; checks: ${x.checks.join(', ')}`);
  line(`    before: ${totals(x.before)}`);
  if (x.after) line(`    after:  ${totals(x.after, x.before)}`);
  if (x.message) for (const l of x.message.split('\n')) line(colors.red(`    ${l}`));
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

/** An argument as a shell would need it typed (for the ledger's command line). */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}
