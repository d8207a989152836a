import { MINI_DBT_VERSION as VERSION } from '../invocation/tool-version.js';
import { prewarmNextConnection } from '../engine/current-engine.js';
import { run, type RunOptions } from '../api/run.js';
import { loadSession } from '../api/session.js';
import { printEvent, printSummary } from './print-run.js';
import { withSeedProgressBar } from './seed-progress-bar.js';
import { testFailureHints } from './print-test-result.js';
import { compiledTestPath } from '../state/write-test-artifacts.js';
import { indirectSelectionOption, sessionOptions, type CommonFlags } from './common-options.js';
import { line, outputSettings, shows } from './terminal.js';
import { printFoundStats } from './found-stats.js';
import { printSeedSamples } from './seed-sample.js';
import { resourceTypesOption } from './resource-type-option.js';
import { runReason } from './run-reason.js';

export interface RunFlags extends CommonFlags {
  select?: string[];
  exclude?: string[];
  fullRefresh?: boolean;
  /** --event-time-start / --event-time-end (microbatch models; run and build). */
  eventTimeStart?: string;
  eventTimeEnd?: string;
  /** test / build: keep every test's failing rows in a table. */
  storeFailures?: boolean;
  /** run / build / test: warnings are failures. */
  warnError?: boolean;
  /** Set by the global flags: dbt's NothingToDo is an error. */
  nothingToDoIsError?: boolean;
  /** build / test: which data tests the selection brings along. */
  indirectSelection?: string;
  /** run / build: dbt's --empty (refs and sources read as empty subqueries). */
  empty?: boolean;
  /** run / build: dbt 1.10's --sample (time-based sampling of refs and sources with an event_time). */
  sample?: string;
  /** dbt's -x/--fail-fast (a global flag, copied onto the command's flags). */
  failFast?: boolean;
  /** seed --show: the first rows of each loaded seed. */
  show?: boolean;
  /** dbt's --threads: nodes at once on an engine whose writers work side by side (PostgreSQL); one at a time on SQLite. */
  threads?: number;
  /** build / test: dbt's --resource-type and --exclude-resource-type. */
  resourceType?: string[];
  excludeResourceType?: string[];
  /** run: why, recorded in the ledger (asked for on a terminal when start/end vars make the run a backfill). */
  reason?: string;
}


/** run / seed / build: print dbt-style lines, return the exit code. */
export async function runCommand(command: NonNullable<RunOptions['command']>, flags: RunFlags, extra: Partial<RunOptions> = {}): Promise<number> {
  // The warehouse is opened next: a server engine may start connecting while the project loads.
  prewarmNextConnection();
  const options = sessionOptions(flags);
  const session = loadSession(options);
  const { manifest, project } = session;
  line(`Running with mini-dbt=${VERSION}`, { name: 'MainReportVersion' });
  if (project.configFile !== 'project.yml') line(`Using ${project.configFile} (no project.yml found)`);
  printFoundStats(manifest);
  const reason = command === 'run' ? await runReason(flags.reason, manifest.vars) : undefined;
  line();
  const result = await run({
    ...options,
    ...extra,
    session,
    command,
    select: flags.select,
    exclude: flags.exclude,
    fullRefresh: flags.fullRefresh,
    ...(flags.eventTimeStart !== undefined || flags.eventTimeEnd !== undefined ? { eventTimeStart: flags.eventTimeStart, eventTimeEnd: flags.eventTimeEnd } : {}),
    ...(flags.storeFailures ? { storeFailures: true } : {}),
    ...(flags.warnError ? { warnError: true } : {}),
    ...(flags.nothingToDoIsError ? { nothingToDoIsError: true } : {}),
    ...(flags.empty ? { empty: true } : {}),
    ...(flags.sample !== undefined ? { sample: flags.sample } : {}),
    ...(flags.failFast ? { failFast: true } : {}),
    ...(flags.threads !== undefined ? { threads: flags.threads } : {}),
    ...(resourceTypesOption(flags.resourceType, flags.excludeResourceType) ? { resourceTypes: resourceTypesOption(flags.resourceType, flags.excludeResourceType) } : {}),
    indirectSelection: indirectSelectionOption(flags.indirectSelection),
    commandLine: ['mini-dbt', ...process.argv.slice(2)].join(' '),
    ...(reason !== undefined ? { reason } : {}),
    // No bar when progress lines are hidden (--quiet, --log-level) or are JSON events.
    onEvent: shows('info') && outputSettings().format !== 'json' ? withSeedProgressBar(printEvent) : printEvent,
  });
  if (result.results.length === 0 && result.hooks.length === 0) {
    line('Nothing to do. Try checking your model configs and model specification args');
    return 0;
  }
  const kinds: Record<string, number> = {};
  for (const r of result.results) {
    const node = manifest.nodes.get(r.uniqueId);
    const kind = r.resourceType === 'test' ? 'data test' : r.resourceType === 'unit_test' ? 'unit test' : r.resourceType === 'snapshot' ? 'snapshot' : node?.resourceType === 'model' ? `${node.settings.materialized} model` : 'seed';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  if (result.hooks.length > 0) kinds['project hook'] = result.hooks.length;
  if (flags.show && command === 'seed') printSeedSamples(session, result);
  printSummary(result.results, result.elapsedSeconds, kinds, (r) => {
    const test = r.resourceType === 'test' && r.status !== 'pass' ? manifest.tests.get(r.uniqueId) : undefined;
    return test ? testFailureHints(r, r.compiledCode === undefined ? undefined : compiledTestPath(project, test)) : [];
  }, result.hooks);
  return result.exitCode;
}
