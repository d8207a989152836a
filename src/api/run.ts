import { randomUUID } from 'node:crypto';
import { namedSelectionBase } from './named-selection.js';
import { selectionState } from './selection-state.js';
import { readsState } from '../graph/selection-state.js';
import { withoutEmptyNodes } from './graph-members.js';
import { now } from '../clock.js';
import type { ModelNode } from '../compile/manifest.js';
import { ProjectError } from '../errors/project-error.js';
import { warnUser } from '../errors/user-warning.js';
import { crashPoint } from '../test-hooks.js';
import type { NodeResult, RunEvent } from '../state/node-result.js';
import { runNodes } from '../execute/run-nodes.js';
import { runProjectHooks } from '../execute/project-hooks.js';
import type { ProjectHookResult } from '../state/hook-result.js';
import { selectNodes } from '../graph/select-nodes.js';
import type { ResourceType } from '../graph/graph-node.js';
import { topologicalOrder } from '../graph/topological-order.js';
import { buildOrder } from '../graph/build-order.js';
import { selectWithTests, type IndirectSelection } from '../graph/select-with-tests.js';
import { writeTestArtifacts } from '../state/write-test-artifacts.js';
import type { NodePlan } from '../plan/node-plan.js';
import { writeRunArtifacts, writeNodeArtifacts } from '../state/write-artifacts.js';
import { afterPublish } from '../state/artifact-write-error.js';
import { finishRun, startRun } from '../state/ledger.js';
import { isBusyError, warehouseLocked } from '../state/warehouse-locked.js';
import { DEFAULT_BUSY_TIMEOUT_MS, openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { setQueryComment, withQueryComments } from '../engine/query-comment-connection.js';
import { renderQueryComment } from '../compile/render-query-comment.js';
import { ensureSchema, isTargetOwnSchema } from '../engine/target-schemas.js';
import { isConnectionLost } from '../engine/connection-lost.js';
import { ledgerIsCurrent, migrateLedger } from '../state/migrate-ledger.js';
import { withRelationLock } from '../execute/relation-lock.js';
import { microbatchNow, parseEventTimeRange, parseTime } from '../config/microbatch-time.js';
import { parseSampleWindow } from '../config/sample-window.js';
import { loadSession, withVars, type Session, type SessionOptions } from './session.js';
import { warnIgnoredAsOf, warnUnusedVars } from './warn-unused-vars.js';
import { warnModelDeprecations } from './warn-model-deprecations.js';
import { attachDeferredSchemas, deferralOf } from './defer-state.js';
import { backfillOfVars, type BackfillRange, type RunContext } from '../invocation/run-context.js';

export interface RunOptions extends SessionOptions {
  readonly select?: readonly string[];
  readonly exclude?: readonly string[];
  readonly fullRefresh?: boolean;
  /** Why this run happened; recorded in the ledger (required for backfills). */
  readonly reason?: string;
  /** 'run', 'seed', 'build', 'backfill', 'test': which resources and how it is recorded. */
  readonly command?: 'run' | 'seed' | 'build' | 'backfill' | 'test' | 'snapshot';
  /** Data tests keep their failing rows in tables (dbt's --store-failures). */
  readonly storeFailures?: boolean;
  /** Which data tests the selection brings along (dbt's --indirect-selection; default eager). */
  readonly indirectSelection?: IndirectSelection;
  /** dbt's --warn-error: a test that would warn fails, and so does an audit (its publish is rolled back). */
  readonly warnError?: boolean;
  /** The command line as typed, for the ledger. */
  readonly commandLine?: string;
  readonly onEvent?: (event: RunEvent) => void;
  /** Write target/ artifacts (default true). */
  readonly writeArtifacts?: boolean;
  /** Reuse an already loaded session (replay, tests); `vars` still apply. */
  readonly session?: Session;
  /** dbt's NothingToDo as an error (--warn-error, or NothingToDo in --warn-error-options): a selection that leaves nothing fails with exit 2. */
  readonly nothingToDoIsError?: boolean;
  /** An open connection to run on, which the caller closes (a backfill reads before and after on it); default: the run opens and closes its own. */
  readonly warehouse?: Warehouse;
  /** Microbatch models: build exactly [start, end) (both or neither; end exclusive). */
  readonly eventTimeStart?: string;
  readonly eventTimeEnd?: string;
  /**
   * A backfill's range (the `backfill` command; its `guarded` model must
   * write only partitions within it). Without it, a run given both `start`
   * and `end` vars is a backfill of that range, mini-dbt's convention.
   */
  readonly backfill?: BackfillRange;
  /** `retry`: rebuild only these batch windows of these microbatch models (by unique id). */
  readonly retryBatches?: ReadonlyMap<string, readonly { readonly start: string; readonly end: string }[]>;
  /** `retry`: the batches of those models that succeeded in the retried invocation (listed again in batch_results). */
  readonly retrySucceeded?: ReadonlyMap<string, readonly { readonly start: string; readonly end: string }[]>;
  /**
   * Refuse --full-refresh when a selected incremental model has full_refresh:
   * false, whatever its full_refresh_ignored says, naming why (replay's first
   * night must rebuild from scratch).
   */
  readonly refuseIgnoredFullRefresh?: string;
  /** dbt's --empty: refs and sources render as limit-0 subqueries, so relations are built with no rows. */
  readonly empty?: boolean;
  /**
   * dbt 1.10's --sample (run, build): '<N> <grain>' back from now (the as_of var when given, else the
   * command's start) or "{'start': ..., 'end': ...}"; refs and sources with an event_time keep only the rows in it.
   */
  readonly sample?: string;
  /** dbt's --fail-fast: the first failure skips every node not yet started. */
  readonly failFast?: boolean;
  /** dbt's --resource-type / --exclude-resource-type (build, test): only these of the command's node types. */
  readonly resourceTypes?: readonly ResourceType[];
  /** dbt's --threads (default: the profile's threads): nodes at once where the engine allows (execute/run-nodes.ts). */
  readonly threads?: number;
}

export interface RunResult {
  readonly invocationId: string;
  readonly results: readonly NodeResult[];
  /** The project's on-run-start and on-run-end hooks that ran (or were skipped after a failing one). */
  readonly hooks: readonly ProjectHookResult[];
  readonly elapsedSeconds: number;
  /** 0 ok, 1 a node failed, 2 a project error made a node fail. */
  readonly exitCode: number;
  readonly session: Session;
}

const RESOURCES: Record<NonNullable<RunOptions['command']>, ResourceType[]> = {
  run: ['model'],
  backfill: ['model'],
  seed: ['seed'],
  build: ['seed', 'snapshot', 'model', 'unit_test', 'test'],
  test: ['unit_test', 'test'],
  snapshot: ['snapshot'],
};

/**
 * --full-refresh and incremental models with full_refresh: false: dbt runs
 * them incrementally (the model's config beats the flag; buildMode decides
 * so), and so does mini-dbt, saying so in one warning line. A model with
 * `full_refresh_ignored: error` refuses the whole command instead, before
 * anything runs.
 */
function checkProtectedModels(models: readonly ModelNode[], refuseAll: string | undefined): void {
  const kept = models.filter((n) => n.settings.materialized === 'incremental' && n.settings.fullRefresh === false);
  if (refuseAll !== undefined && kept.length > 0) {
    const names = kept.map((n) => n.name);
    throw new ProjectError(`${refuseAll}: ${names.join(', ')} ${names.length > 1 ? 'have' : 'has'} full_refresh: false, so --full-refresh would run ${names.length > 1 ? 'them' : 'it'} incrementally`, {
      hint: 'remove full_refresh: false to let it be rebuilt',
    });
  }
  const refused = kept.filter((n) => n.settings.fullRefreshIgnored === 'error').map((n) => n.name);
  if (refused.length > 0) {
    const them = refused.length > 1 ? 'them' : 'it';
    throw new ProjectError(`--full-refresh refused: ${refused.join(', ')} ${refused.length > 1 ? 'have' : 'has'} full_refresh: false and full_refresh_ignored: error`, {
      hint: `leave ${them} out with --exclude ${refused.join(' ')}, run without --full-refresh, or remove full_refresh_ignored: error to run ${them} incrementally as dbt does`,
    });
  }
  if (kept.length === 0) return;
  const names = kept.map((n) => n.name);
  const one = names.length === 1;
  warnUser(`${names.join(', ')} ${one ? 'has' : 'have'} full_refresh: false, so --full-refresh runs ${one ? 'it' : 'them'} incrementally, as dbt does (existing rows are kept); remove full_refresh: false to rebuild ${one ? 'it' : 'them'}, or set full_refresh_ignored: error to refuse the command instead`);
}

/** Select, order and build nodes: the engine behind run, seed, build and backfill. */
export async function run(options: RunOptions = {}): Promise<RunResult> {
  const t0 = performance.now();
  const session = options.session ? (options.vars ? withVars(options.session, options.vars) : options.session) : loadSession(options);
  const { manifest, graph, project } = session;
  const command = options.command ?? 'run';
  const types = options.resourceTypes ? RESOURCES[command].filter((t) => options.resourceTypes!.includes(t)) : RESOURCES[command];
  const state = options.state !== undefined ? { state: selectionState(options.state, manifest, graph) } : {};
  const named = namedSelectionBase(options, project.root, graph, state.state);
  if (named.defaultName !== undefined) options.onEvent?.({ type: 'log', message: `Using default selector ${named.defaultName}` });
  const base = named.base ? { base: named.base } : {};
  const selected = withoutEmptyNodes(manifest, types.length === 0 ? new Set<string>() : RESOURCES[command].includes('test')
    ? selectWithTests(graph, { select: options.select, exclude: options.exclude, resourceTypes: types, indirectSelection: options.indirectSelection, ...state, ...base })
    : selectNodes(graph, { select: options.select, exclude: options.exclude, resourceTypes: types, ...state, ...base }));
  const byState = readsState(options.select) || readsState(options.exclude);
  if (selected.size === 0 && ((options.select?.length ?? 0) > 0 || (options.exclude?.length ?? 0) > 0)) {
    const flags = [...(options.select?.length ? [`--select ${options.select.join(' ')}`] : []), ...(options.exclude?.length ? [`--exclude ${options.exclude.join(' ')}`] : [])];
    const nothing = `Nothing to do: ${flags.join(' ')}${byState ? ` (compared with --state ${options.state ?? ''})` : ''} leaves no ${types.map((t) => (t === 'unit_test' ? 'unit test' : t === 'test' ? 'data test' : t)).join(' or ')} to ${command}`;
    // dbt's NothingToDo is a warning and the command succeeds with no results (nothing changed since the state,
    // a model without tests): kept, said in one line; --warn-error (or NothingToDo in --warn-error-options) makes it an error.
    if (options.nothingToDoIsError) throw new ProjectError(nothing, { hint: `\`mini-dbt ls ${flags.join(' ')}\` shows what a selection matches` });
    warnUser(`${nothing}: nothing ran and the command succeeds, as in dbt (--warn-error makes this an error)`);
  }
  const order = command === 'build' ? buildOrder(graph, selected) : topologicalOrder(graph, selected);
  warnUnusedVars(session, options.vars, order);
  warnIgnoredAsOf(session, options.vars, order);
  const eventTime = parseEventTimeRange(options.eventTimeStart, options.eventTimeEnd);
  const startedAt = now();
  const sample = options.sample === undefined ? undefined : parseSampleWindow(options.sample, microbatchNow(manifest.vars.as_of, startedAt));
  const asOf = manifest.vars.as_of;
  // The as-of is recorded in the ledger and read by microbatch planning: a real date (or time), checked once here.
  if (asOf !== undefined && asOf !== null && asOf !== '') parseTime(asOf, "var 'as_of'");
  if (options.fullRefresh) checkProtectedModels(order.map((id) => manifest.nodes.get(id)).filter((n): n is ModelNode => n?.resourceType === 'model'), options.refuseIgnoredFullRefresh);
  const busyTimeoutMs = options.busyTimeoutMs ?? project.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  // dbt's query-comment, on every statement of the run: the run's own ('master', as dbt names that connection) until a node's.
  const masterComment = renderQueryComment(manifest, undefined, 'master');
  // --defer: refs to unselected or unbuilt nodes may read the state's relations (its SQLite files attached to read).
  const defer = deferralOf(options, manifest, schemasWritten(manifest, order));
  const db = withQueryComments(options.warehouse ?? openProjectWarehouse(project, { busyTimeoutMs }));
  setQueryComment(db, masterComment);
  attachDeferredSchemas(db, defer);
  const context: RunContext = {
    command,
    selectedResources: order,
    invocationId: randomUUID(),
    startedAt,
    fullRefresh: options.fullRefresh ?? false,
    backfill: options.backfill ?? backfillOfVars(manifest.vars),
    eventTime,
    retryBatches: options.retryBatches,
    retrySucceeded: options.retrySucceeded,
    warnError: options.warnError ?? false,
    storeFailures: options.storeFailures ?? false,
    vars: manifest.vars,
    ...(options.empty ? { empty: true } : {}),
    ...(sample ? { sample } : {}),
    ...(options.failFast ? { failFast: true } : {}),
    ...(defer ? { defer } : {}),
  };
  const { invocationId, startedAt: runStartedAt } = context;
  // dbt's DeprecatedModel and (Upcoming)DeprecatedReference, as of the run's start.
  warnModelDeprecations(manifest, order, runStartedAt);
  try {
    // Runs that start at once on a server take turns to create the ledger and the schemas (one would fail on the other's catalog row).
    // A run with nothing to create (every node in the target's own schema, the ledger current: most runs) reads that in one query, unlocked.
    const schemas = [...schemasWritten(manifest, order)];
    if (!schemas.every((schema) => isTargetOwnSchema(project.target, schema)) || !ledgerIsCurrent(db)) {
      withRelationLock(db, '_mini_dbt_ledger', () => {
        migrateLedger(db);
        // dbt's create_schema: the schemas the selected nodes are built in, attached (files created) before anything runs.
        for (const schema of schemas) ensureSchema(db, project.target, schema);
      }, busyTimeoutMs);
    }
    startRun(db, {
      invocationId,
      command,
      commandLine: options.commandLine ?? `mini-dbt ${command}`,
      vars: manifest.vars,
      reason: options.reason,
      asOf: asOf === undefined || asOf === null ? undefined : String(asOf),
    });
    const plans: { node: ModelNode; plan: NodePlan }[] = [];
    // The project's on-run-start hooks (not for an empty selection, as dbt); a failing one skips every node.
    const emit = options.onEvent ?? (() => undefined);
    const hooks = order.length > 0 ? runProjectHooks({ db, manifest, graph, which: 'on-run-start', run: context, emit }) : [];
    const startFailure = hooks.find((h) => h.status === 'error');
    const results = await runNodes({
      db,
      manifest,
      graph,
      order,
      context,
      reason: options.reason,
      onEvent: options.onEvent,
      onPlanned: (node, plan) => plans.push({ node, plan }),
      threads: options.threads ?? project.target.threads,
      ...(options.threads !== undefined ? { threadsFlag: options.threads } : {}),
      session: { projectDir: options.projectDir, database: options.database, vars: options.vars, busyTimeoutMs, profilesDir: options.profilesDir, profile: options.profile, target: options.target, ...(options.partialParse === false ? { partialParse: false } : {}), ...(options.targetPath !== undefined ? { targetPath: options.targetPath } : {}) },
      ...(startFailure ? { skipAllBecause: `skipped because on-run-start hook ${startFailure.name} failed` } : {}),
    });
    if (order.length > 0) hooks.push(...runProjectHooks({ db, manifest, graph, which: 'on-run-end', run: context, emit, results }));
    const hookFailed = hooks.some((h) => h.status === 'error');
    const failed = hookFailed || results.some((r) => r.status === 'error' || r.status === 'partial success' || r.status === 'fail');
    crashPoint();
    try {
      finishRun(db, invocationId, failed ? 'error' : 'success');
    } catch (err) {
      // The server connection went with the failed node: the run row stays 'running' (shown as unfinished); the results still report.
      if (!(failed && isConnectionLost(err))) throw err;
    }
    const elapsedSeconds = (performance.now() - t0) / 1000;
    if (options.writeArtifacts !== false) {
      afterPublish(() => {
        for (const { node, plan } of plans) writeNodeArtifacts(project, node, plan);
        writeTestArtifacts(project, manifest, results);
        writeRunArtifacts(project, manifest, graph, { invocationId, command, results, hooks, elapsedSeconds, runStartedAt, options: { select: options.select, exclude: options.exclude, fullRefresh: options.fullRefresh, vars: options.vars } });
      });
    }
    const exitCode = results.reduce((code, r) => (r.status === 'error' || r.status === 'partial success' || r.status === 'fail' ? Math.max(code, r.exitCode) : code), hookFailed ? 1 : 0);
    return { invocationId, results, hooks, elapsedSeconds, exitCode, session };
  } catch (err) {
    if (!isBusyError(err)) throw err;
    const locked = warehouseLocked(db, project.databasePath, busyTimeoutMs, invocationId);
    try {
      // One try, no second wait: the message states the wait that was used.
      db.setBusyTimeout(0);
      finishRun(db, invocationId, 'error');
    } catch {
      // Still locked: the run row stays 'running' (shown as unfinished).
    }
    throw locked;
  } finally {
    if (!options.warehouse) db.close();
  }
}

/** The schemas the nodes of `order` write relations in (seeds, and models that are not ephemeral). */
function schemasWritten(manifest: Session['manifest'], order: readonly string[]): Set<string> {
  const schemas = new Set<string>();
  for (const id of order) {
    const node = manifest.nodes.get(id) ?? [...(manifest.snapshots?.values() ?? [])].find((s) => s.uniqueId === id);
    if (node?.resourceType === 'snapshot') schemas.add(node.schema);
    if (node?.resourceType === 'seed' || (node?.resourceType === 'model' && node.settings.materialized !== 'ephemeral')) schemas.add(node.schema);
  }
  return schemas;
}
