import { join } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { readRunResults } from '../state/read-run-results.js';
import { run, type RunOptions, type RunResult } from './run.js';
import { loadSession, type Session, type SessionOptions } from './session.js';

type Window = { readonly start: string; readonly end: string };

/** What `retry` will rebuild: the failed and skipped nodes of the last invocation, and only the failed batches of microbatch models. */
export interface RetryPlan {
  readonly invocationId: string;
  readonly command: NonNullable<RunOptions['command']>;
  /** One fqn selector per node to rebuild. */
  readonly select: readonly string[];
  readonly nodes: readonly { readonly uniqueId: string; readonly name: string; readonly status: string; readonly batches?: readonly Window[] }[];
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly fullRefresh?: boolean;
  readonly retryBatches: ReadonlyMap<string, readonly Window[]>;
  /** The batches of those models that succeeded in the retried invocation: dbt lists them again in the retry's batch_results. */
  readonly retrySucceeded: ReadonlyMap<string, readonly Window[]>;
}

const COMMANDS = new Set(['run', 'build', 'seed', 'backfill', 'snapshot', 'test']);

/**
 * Read target/run_results.json (as dbt retry does) and decide what to
 * rebuild. A microbatch model reruns only its failed batches (after a
 * --full-refresh run with none successful, it is rebuilt as a normal run
 * would). Null when the last invocation had nothing to retry.
 */
export function planRetry(session: Session): RetryPlan | null {
  const { project, manifest } = session;
  const shown = `${project.paths.target}/run_results.json`;
  const read = readRunResults(join(project.root, project.paths.target, 'run_results.json'));
  if (!read.ok && read.missing) {
    throw new ProjectError(`nothing to retry: ${shown} does not exist`, { hint: 'retry reruns what failed in the last `mini-dbt run` or `build`' });
  }
  if (!read.ok) {
    throw new ProjectError(`nothing to retry: ${shown} is ignored: ${read.problem}`, { hint: 'the next `mini-dbt run` or `build` writes a new one' });
  }
  const file = read.file;
  // dbt's retryable statuses: error, fail (a data or unit test), skipped, partial success.
  const todo = (file.results ?? []).filter((r) => r.status === 'error' || r.status === 'fail' || r.status === 'partial success' || r.status === 'skipped');
  if (todo.length === 0) return null;
  const retryBatches = new Map<string, Window[]>();
  const retrySucceeded = new Map<string, Window[]>();
  const nodes: RetryPlan['nodes'][number][] = [];
  const select: string[] = [];
  for (const r of todo) {
    const node = manifest.nodes.get(r.unique_id) ?? manifest.tests.get(r.unique_id) ?? manifest.unitTests?.get(r.unique_id)
      ?? [...(manifest.snapshots?.values() ?? [])].find((n) => n.uniqueId === r.unique_id);
    if (!node || node.resourceType === 'source') continue; // removed since
    const failed = r.batch_results?.failed ?? [];
    // With no successful batch dbt plans the run again from the original invocation's start, which gives the batches
    // that failed (skipped ones included): rerunning that list keeps a retry of a failed retry on its batches, as
    // dbt's does. A --full-refresh run is planned again instead, so that it rebuilds the table.
    const succeeded = (r.batch_results?.successful ?? []).map(([start, end]) => ({ start, end }));
    const batches = failed.length > 0 && (succeeded.length > 0 || file.args?.fullRefresh !== true) ? failed.map(([start, end]) => ({ start, end })) : undefined;
    if (batches) retryBatches.set(node.uniqueId, batches);
    if (batches && succeeded.length > 0) retrySucceeded.set(node.uniqueId, succeeded);
    nodes.push({ uniqueId: node.uniqueId, name: node.name, status: r.status, ...(batches ? { batches } : {}) });
    // A test is selected by its own name (its fqn is its name's place, not a folder path dbt's fqn method walks).
    select.push(node.resourceType === 'test' || node.resourceType === 'unit_test' ? node.name : `fqn:${node.fqn.join('.')}`);
  }
  if (select.length === 0) return null;
  const which = file.args?.which ?? 'run';
  return {
    invocationId: file.metadata?.invocation_id ?? 'unknown',
    command: (COMMANDS.has(which) ? which : 'run') as RetryPlan['command'],
    select,
    nodes,
    vars: file.args?.vars ?? undefined,
    fullRefresh: file.args?.fullRefresh ?? undefined,
    retryBatches,
    retrySucceeded,
  };
}

export interface RetryOptions extends SessionOptions {
  readonly session?: Session;
  readonly onEvent?: RunOptions['onEvent'];
  readonly writeArtifacts?: boolean;
  readonly commandLine?: string;
}

/** `retry`: rebuild what failed last time; null when there is nothing to retry. */
export async function retry(options: RetryOptions = {}): Promise<(RunResult & { readonly retried: RetryPlan }) | null> {
  const session = options.session ?? loadSession(options);
  const plan = planRetry(session);
  if (!plan) return null;
  const result = await run({
    ...options,
    session,
    command: plan.command,
    select: plan.select,
    vars: plan.vars,
    fullRefresh: plan.fullRefresh,
    retryBatches: plan.retryBatches,
    retrySucceeded: plan.retrySucceeded,
    commandLine: options.commandLine ?? 'mini-dbt retry',
  });
  return { ...result, retried: plan };
}
