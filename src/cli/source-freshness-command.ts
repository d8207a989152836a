import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { relative } from 'node:path';
import { isoUtc, sourceFreshness, type FreshnessEvent, type FreshnessResult } from '../api/source-freshness.js';
import { thresholdSeconds, type FreshnessTime } from '../config/freshness-criteria.js';
import { sessionOptions, type CommonFlags } from './common-options.js';
import { printEvent } from './print-run.js';
import { colors, line, outputSettings } from './terminal.js';

export interface SourceFreshnessFlags extends CommonFlags {
  select?: string[];
  exclude?: string[];
  output?: string;
}


function dotted(prefix: string, status: string): string {
  const dots = Math.max(3, outputSettings().printerWidth - prefix.length - 1);
  return `${prefix} ${'.'.repeat(dots)} [${status}]`;
}

/** dbt's LogFreshnessResult words: PASS, WARN, ERROR STALE (past error_after), ERROR (could not check). */
const WORDS: Record<FreshnessResult['status'], string> = { pass: 'PASS', warn: 'WARN', error: 'ERROR STALE', 'runtime error': 'ERROR' };

const paint = (status: FreshnessResult['status'], text: string) => (status === 'pass' ? colors.green(text) : status === 'warn' ? colors.yellow(text) : colors.red(text));

/** An age in the largest unit that keeps it readable: 26.5 hours, 3.2 days. */
function age(seconds: number): string {
  const abs = Math.abs(seconds);
  const [n, unit] = abs >= 172_800 ? [seconds / 86_400, 'days'] : abs >= 7_200 ? [seconds / 3600, 'hours'] : abs >= 120 ? [seconds / 60, 'minutes'] : [seconds, 'seconds'];
  return `${Number(n.toFixed(1))} ${unit}`;
}

const limit = (t: FreshnessTime | null) => (t === null ? 'none' : `${t.count} ${t.period}${t.count === 1 ? '' : 's'} (${thresholdSeconds(t)}s)`);

function printFreshnessEvent(event: FreshnessEvent): void {
  if (event.type === 'run') {
    printEvent(event.event);
    return;
  }
  const head = `${event.index} of ${event.total}`;
  if (event.type === 'start') {
    line(dotted(`${head} START freshness of ${event.name}`, 'RUN'), { name: 'LogStartLine' });
    return;
  }
  const r = event.result;
  const word = WORDS[r.status];
  const level = r.status === 'pass' ? 'info' : r.status === 'warn' ? 'warn' : 'error';
  line(dotted(`${head} ${word} freshness of ${r.name}`, `${paint(r.status, word)} in ${r.executionTime.toFixed(2)}s`), { name: 'LogFreshnessResult', level });
  if (r.ageSeconds !== undefined) {
    // What the status was judged on: the newest row, its age against "now", and the limits.
    line(colors.dim(`      ${r.probe ?? `max(${r.loadedAtField})`} = ${String(r.maxLoadedAtValue)}: ${age(r.ageSeconds)} before ${isoUtc(event.now)}; warn after ${limit(r.criteria.warnAfter)}, error after ${limit(r.criteria.errorAfter)}${r.criteria.filter === null ? '' : `; where ${r.criteria.filter}`}`));
  }
}

/** source freshness: dbt's lines per source table, sources.json, exit 1 when one is past error_after or cannot be checked. */
export function sourceFreshnessCommand(flags: SourceFreshnessFlags): number {
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  let first = true;
  const run = sourceFreshness({
    ...sessionOptions(flags),
    select: flags.select,
    exclude: flags.exclude,
    output: flags.output,
    onEvent: (event) => {
      if (first) line();
      first = false;
      printFreshnessEvent(event);
    },
  });
  const where = relative(process.cwd(), run.path) || run.path;
  if (run.results.length === 0) {
    line('Nothing to do. Try checking your model configs and model specification args (no selected source table has a freshness warn_after or error_after)', { name: 'NothingToDo', level: 'warn' });
    line(`Wrote ${where}`);
    return 0;
  }
  line();
  line(`Finished running ${run.results.length} source${run.results.length === 1 ? '' : 's'} in ${run.elapsedSeconds.toFixed(2)}s (now: ${isoUtc(run.now)}${run.asOf ? ', the as_of var' : ''}).`, { name: 'FinishedRunningStats' });
  for (const h of run.hooks.filter((x) => x.status === 'error')) {
    // dbt's RunResultError for a failed project hook: its name and why.
    line();
    line(colors.red(`Failure in ${h.which} hook ${h.name}`), { level: 'error', name: 'RunResultError' });
    line(`  ${h.message}`, { level: 'error', name: 'RunResultError' });
  }
  for (const r of run.results.filter((x) => x.status === 'error' || x.status === 'runtime error')) {
    line();
    line(colors.red(`Failure in source ${r.name}`), { level: 'error', name: 'RunResultError' });
    const why = r.status === 'runtime error' ? r.message! : `its newest row (${r.probe ?? `max ${r.loadedAtField}`} = ${String(r.maxLoadedAtValue)}) is ${age(r.ageSeconds!)} old, past error_after ${limit(r.criteria.errorAfter)}`;
    line(`  ${why}`, { level: 'error', name: 'RunResultError' });
  }
  line();
  line(`Wrote ${where}`);
  line('Done.', { name: 'FreshnessCheckComplete' });
  return run.exitCode;
}
