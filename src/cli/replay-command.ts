import cliProgress from 'cli-progress';
import { replay, type ReplayPass, type ReplayResult } from '../api/replay.js';
import { ProjectError } from '../errors/project-error.js';
import { requireWholeDays } from '../analysis/require-whole-days.js';
import { formatRange, minimalRanges } from '../analysis/minimal-ranges.js';
import { bar, pad } from './bar-chart.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { colors } from './terminal.js';
import { staleWhyLines } from './stale-why-lines.js';
import { replayGrids } from '../analysis/replay-grid.js';
import { replayGridText } from './replay-grid-text.js';

export interface ReplayFlags extends CommonFlags {
  from?: string;
  to?: string;
  weeklyBackfill?: string;
  keep?: string;
  json?: boolean;
  verbose?: boolean;
  grid?: boolean;
  compareLookback?: string;
  candidates?: boolean;
}

/** replay <model> --from D1 --to D2: the nightly job simulated on a scratch copy, stale partitions per night. */
export async function replayCommand(model: string, flags: ReplayFlags): Promise<number> {
  if (flags.from === undefined || flags.to === undefined) throw new ProjectError('replay needs --from and --to (the first and last night)', { hint: `e.g. mini-dbt replay ${model} --from 2026-09-02 --to 2026-10-31` });
  const weeklyBackfill = flags.weeklyBackfill === undefined ? undefined : requireWholeDays(flags.weeklyBackfill, '--weekly-backfill');
  const showBar = Boolean(process.stderr.isTTY) && !flags.json;
  const progress = showBar
    ? new cliProgress.SingleBar({ format: 'replay {pass} |{bar}| {value}/{total} nights | {night}: {stale} stale', hideCursor: true, clearOnComplete: true, stream: process.stderr }, cliProgress.Presets.shades_classic)
    : undefined;
  let started = false;
  let result: ReplayResult;
  try {
    result = await replay({
      ...sessionOptions(flags),
      model,
      from: flags.from,
      to: flags.to,
      weeklyBackfill,
      keepAs: flags.keep,
      ...(flags.candidates ? { candidates: true } : {}),
      compareLookback: flags.compareLookback === undefined ? undefined : requireWholeDays(flags.compareLookback, '--compare-lookback'),
      onNight: (p) => {
        if (!progress) return;
        if (!started) {
          progress.start(p.total, 0, { pass: p.pass, night: p.night, stale: p.stale });
          started = true;
        }
        progress.update(p.done, { pass: p.pass === 'required' ? '(required lookback)' : '', night: p.night, stale: p.stale });
      },
    });
  } finally {
    if (started) progress?.stop();
  }
  const grids = flags.grid ? replayGrids(result) : undefined;
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(grids ? { ...result, grids } : result, null, 2)}\n`);
    return 0;
  }
  const grid = grids ? replayGridText(grids, { width: process.stdout.isTTY ? process.stdout.columns : undefined }) : undefined;
  process.stdout.write(`${renderReplay(result, { verbose: flags.verbose === true, grid }).join('\n')}\n`);
  return 0;
}

export function renderReplay(r: ReplayResult, options: { readonly verbose?: boolean; readonly grid?: readonly string[] } = {}): string[] {
  const out: string[] = [];
  const weekly = r.weekly_backfill !== null ? `, plus every Sunday a backfill of the last ${r.weekly_backfill} days` : '';
  out.push(colors.bold(`Replay of ${r.model}, nights ${r.from}..${r.to}: lookback ${r.lookback}${weekly}`));
  out.push(colors.dim('on a scratch copy of the warehouse (the live warehouse was not touched); after each night the table is compared with a full rebuild as of that night'));
  out.push('');
  const max = Math.max(1, ...r.nights.map((n) => n.stale.length));
  if (options.grid) out.push(...options.grid);
  else out.push(colors.dim(`night        stale`));
  for (const n of options.grid ? [] : r.nights) {
    const mark = n.weekly_backfill ? colors.cyan(' (weekly backfill)') : '';
    const drawn = bar(n.stale.length, max, 30);
    out.push(`${n.run_date} ${pad(n.stale.length, 5)}  ${n.stale.length > 0 ? colors.red(drawn) : ''}${mark}`);
  }
  out.push('');
  const why = staleWhyLines(r.went_stale, r.lookback, options.verbose === true);
  if (why.length > 0) out.push(...why, '');
  out.push(...summary(r, r.lookback));
  out.push(colors.bold(`required lookback: ${r.required_lookback} (the longest lateness in the raw rows)`));
  if (r.with_required_lookback) {
    const w = r.with_required_lookback;
    out.push(`the same replay with lookback ${w.lookback}: worst night ${w.worst?.stale_count ?? 0} stale, ${w.final_stale.length} stale at the end`);
  } else if (r.required_lookback <= r.lookback) {
    out.push(colors.green(`lookback ${r.lookback} already covers the longest lateness`));
  }
  if (r.kept_as) out.push(`the simulated warehouse (lookback ${r.lookback}) is saved in ${r.kept_as}: try mini-dbt stale ${r.model} --database ${r.kept_as}`);
  return out;
}

function summary(p: ReplayPass, lookback: number): string[] {
  const out: string[] = [];
  if (p.worst && p.worst.stale_count > 0) {
    out.push(colors.red(`worst night: ${p.worst.run_date} with ${p.worst.stale_count} stale partition(s): ${minimalRanges(p.worst.stale).map(formatRange).join(', ')}`));
  } else {
    out.push(colors.green(`no night had a stale partition with lookback ${lookback}`));
  }
  const final = p.final_stale;
  const where = final.length > 0 ? `: ${minimalRanges(final).map(formatRange).join(', ')}` : '';
  out.push((final.length > 0 ? colors.red : colors.green)(`stale at the end (against everything landed): ${final.length}${where}`));
  return out;
}
