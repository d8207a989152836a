import type { ProjectHookResult } from '../state/hook-result.js';
import { relationLabel } from '../execute/describe-node.js';
import { previewValue } from '../errors/value-preview.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';
import { testResultLine } from './print-test-result.js';
import { lateRowsLine } from './late-rows-line.js';
import { colors, line, outputSettings, printLine } from './terminal.js';

function dotted(prefix: string, status: string): string {
  // --printer-width (default 80)
  const dots = Math.max(3, outputSettings().printerWidth - prefix.length - 1);
  return `${prefix} ${'.'.repeat(dots)} [${status}]`;
}

/** Print dbt-style START / OK / ERROR / SKIP lines as a run progresses. */
export function printEvent(event: RunEvent): void {
  if (event.type === 'log') {
    if (event.level === 'print') printLine(event.message);
    else line(event.message, event.level ? { level: event.level } : {});
    return;
  }
  if (event.type === 'progress') return; // drawn by seedProgressBar on a terminal
  const head = `${event.index} of ${event.total}`;
  if (event.type === 'hook') {
    const r = event.result;
    if (!r) line(dotted(`${head} START hook: ${event.name}`, 'RUN'), { name: 'LogHookStartLine' });
    else if (r.status === 'success') line(dotted(`${head} OK hook: ${event.name}`, `${colors.green('OK')} in ${r.executionTime.toFixed(2)}s`), { name: 'LogHookEndLine' });
    else line(dotted(`${head} ERROR hook: ${event.name}`, `${colors.red('ERROR')} in ${r.executionTime.toFixed(2)}s`), { name: 'LogHookEndLine', level: 'error' });
    return;
  }
  if (event.type === 'start') {
    line(dotted(`${head} START ${event.description}`, 'RUN'), { name: 'LogStartLine' });
    return;
  }
  const r = event.result;
  if (r.resourceType === 'test' || r.resourceType === 'unit_test') {
    const { text, status } = testResultLine(r, r.resourceType === 'unit_test' ? event.description.replace(/^unit_test /, '') : r.name);
    line(dotted(`${head} ${text}`, status), { name: 'LogTestResult', level: r.status === 'fail' || r.status === 'error' ? 'error' : r.status === 'warn' ? 'warn' : 'info' });
    return;
  }
  const time = `in ${r.executionTime.toFixed(2)}s`;
  if (r.status === 'success') {
    const verb = r.resourceType === 'seed' ? 'loaded' : r.resourceType === 'snapshot' ? 'snapshotted' : 'created';
    line(dotted(`${head} OK ${verb} ${r.resourceType === 'snapshot' ? event.description.replace(/^snapshot /, '') : event.description}`, `${colors.green(r.message ?? 'OK')} ${time}`), { name: 'LogModelResult' });
    // How the model was built, for the models whose build has a choice (incremental ones, or any that wrote partitions); a plain table is always rebuilt, as in dbt, and says nothing more.
    if (r.plan && r.plan.mode !== 'view' && (r.plan.mode !== 'full' || r.plan.strategy !== undefined || r.partitions.length > 0)) {
      const parts = [`${r.plan.mode}${r.plan.strategy ? ` (${r.plan.strategy})` : ''}: ${r.plan.reason}`];
      if (r.partitions.length > 0) {
        const range = r.partitions.length === 1 ? r.partitions[0] : `${r.partitions[0]}..${r.partitions[r.partitions.length - 1]}`;
        parts.push(`wrote ${r.partitions.length} partition${r.partitions.length === 1 ? '' : 's'} ${range}`);
      }
      if (r.asOf) parts.push(`as of ${previewValue(r.asOf)}`);
      line(colors.dim(`      ${parts.join('; ')}`));
    }
    const late = r.lateRowsNotApplied ? lateRowsLine(r.lateRowsNotApplied) : undefined;
    // A warning: what the run could not apply (--log-level warn keeps only these lines, one per night that missed rows).
    if (late) line(colors.yellow(`      ${late}`), { name: 'LateRowsNotApplied', level: 'warn' });
  } else if (r.status === 'error') {
    line(dotted(`${head} ERROR creating ${event.description}`, `${colors.red('ERROR')} ${time}`), { name: 'LogModelResult', level: 'error' });
  } else if (r.status === 'partial success') {
    const batches = r.batchResults ? ` (${r.batchResults.successful.length}/${r.batchResults.successful.length + r.batchResults.failed.length})` : '';
    line(dotted(`${head} PARTIALLY created ${event.description}`, `${colors.yellow(`PARTIAL SUCCESS${batches}`)} ${time}`));
  } else {
    line(dotted(`${head} SKIP relation ${r.relationName ? relationLabel(r.relationName) : `main.${r.name}`}`, colors.yellow('SKIP')), { name: 'LogSkipResult' });
  }
}

/** The closing block: Finished ..., failures, Done. PASS=.. WARN=.. ERROR=.. SKIP=.. TOTAL=.. */
export function printSummary(
  results: readonly NodeResult[], elapsedSeconds: number, kinds: Readonly<Record<string, number>>, details: (r: NodeResult) => string[] = () => [],
  hooks: readonly ProjectHookResult[] = [],
): void {
  // Project hooks count as dbt counts them: in PASS / ERROR / SKIP and TOTAL.
  const pass = results.filter((r) => r.status === 'success' || r.status === 'pass').length + hooks.filter((h) => h.status === 'success').length;
  const warn = results.filter((r) => r.status === 'warn').length;
  const hookErrors = hooks.filter((h) => h.status === 'error');
  const error = results.filter((r) => r.status === 'error' || r.status === 'fail').length + hookErrors.length;
  // dbt counts a partial success under ERROR in the Done line and names it in the heading.
  const partial = results.filter((r) => r.status === 'partial success').length;
  const skip = results.filter((r) => r.status === 'skipped').length + hooks.filter((h) => h.status === 'skipped').length;
  const what = Object.entries(kinds)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${n} ${k}${n === 1 ? '' : 's'}`)
    .join(', ');
  line();
  line(`Finished running ${what || 'nothing'} in ${elapsedSeconds.toFixed(2)}s.`, { name: 'FinishedRunningStats' });
  line();
  if (error === 0 && warn === 0 && partial === 0) {
    line(colors.green('Completed successfully'));
  } else {
    // dbt's EndOfRunSummary (1.9 on) word for word: errors name all three counts, partial successes without errors
    // name two (no colon), warnings alone name one.
    const errors = `${error} error${error === 1 ? '' : 's'}`;
    const partials = `${partial} partial success${partial === 1 ? '' : 'es'}`;
    const warnings = `${warn} warning${warn === 1 ? '' : 's'}`;
    if (error > 0) line(colors.red(`Completed with ${errors}, ${partials}, and ${warnings}:`));
    else if (partial > 0) line(colors.yellow(`Completed with ${partials} and ${warnings}`));
    else line(colors.yellow(`Completed with ${warnings}:`));
    for (const h of hookErrors) {
      line();
      line(colors.red(`Failure in hook ${h.name}`), { level: 'error', name: 'RunResultError' });
      for (const l of h.message.split('\n')) line(`  ${l}`, { level: 'error', name: 'RunResultError' });
    }
    for (const r of results.filter((x) => x.status === 'error' || x.status === 'partial success' || x.status === 'fail' || x.status === 'warn')) {
      line();
      const where = r.path ? ` (${r.path})` : '';
      // dbt logs these at warn and error level: --quiet keeps the failures.
      const level = r.status === 'warn' ? 'warn' : 'error';
      line(r.status === 'warn' ? colors.yellow(`Warning in ${r.resourceType} ${r.name}${where}`) : colors.red(`Failure in ${r.resourceType} ${r.name}${where}`), { level, name: 'RunResultError' });
      for (const l of [...(r.message ?? '').split('\n'), ...details(r)]) line(`  ${l}`, { level, name: 'RunResultError' });
    }
  }
  line();
  line(`Done. PASS=${pass} WARN=${warn} ERROR=${error + partial} SKIP=${skip} TOTAL=${results.length + hooks.length}`, { name: 'StatsLine' });
}
