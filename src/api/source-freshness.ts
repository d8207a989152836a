import { DBT_VERSION, MINI_DBT_VERSION } from '../invocation/tool-version.js';
import { randomUUID } from 'node:crypto';
import { isAbsolute, join, resolve } from 'node:path';
import { now as clockNow } from '../clock.js';
import type { Manifest, SourceNode } from '../compile/manifest.js';
import { operationRenderState } from '../compile/operation-render-state.js';
import { Relation } from '../compile/relation.js';
import { isProjectError } from '../errors/project-error.js';
import { PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { freshnessStatus, type FreshnessCriteria, type FreshnessTime } from '../config/freshness-criteria.js';
import { boundText, microbatchNow, tryParseTime } from '../config/microbatch-time.js';
import { openProjectWarehouse, type Warehouse } from '../engine/open-warehouse.js';
import { setQueryComment, withQueryComments } from '../engine/query-comment-connection.js';
import { renderQueryComment } from '../compile/render-query-comment.js';
import { qualifiedName, quoteLiteral } from '../engine/quote-identifier.js';
import { relationKind } from '../engine/relation-kind.js';
import { selectNodes } from '../graph/select-nodes.js';
import { writeArtifact } from '../state/artifact-write-error.js';
import { loadSession, type SessionOptions } from './session.js';
import { runProjectHooks } from '../execute/project-hooks.js';
import { warnUser } from '../errors/user-warning.js';
import type { Project } from '../project/project.js';
import type { ProjectHookResult } from '../state/hook-result.js';
import type { RunEvent } from '../state/node-result.js';

export interface SourceFreshnessOptions extends SessionOptions {
  readonly select?: readonly string[];
  readonly exclude?: readonly string[];
  /** dbt's -o/--output: where sources.json goes (relative to the current directory; default target/sources.json). */
  readonly output?: string;
  /** Called before and after each source table is checked (the CLI prints dbt's lines). */
  readonly onEvent?: (event: FreshnessEvent) => void;
}

/** One source table's freshness: dbt's status `pass`, `warn`, `error`, or `runtime error` (the check could not be made). */
export interface FreshnessResult {
  readonly uniqueId: string;
  /** `source.table`, as dbt's log lines name it. */
  readonly name: string;
  readonly status: 'pass' | 'warn' | 'error' | 'runtime error';
  readonly criteria: FreshnessCriteria;
  readonly loadedAtField?: string;
  readonly loadedAtQuery?: string;
  /** What the newest load time was read with: `max(<loaded_at_field>)` or `loaded_at_query`. */
  readonly probe?: string;
  /** max(loaded_at_field) (or the loaded_at_query's value), as the warehouse returned it, and parsed (UTC). */
  readonly maxLoadedAtValue?: unknown;
  readonly maxLoadedAt?: Date;
  readonly ageSeconds?: number;
  /** Why a runtime error. */
  readonly message?: string;
  readonly executionTime: number;
  readonly startedAt: Date;
  readonly completedAt: Date;
}

export type FreshnessEvent =
  /** A project hook's lines (on-run-start / on-run-end), as a run prints them. */
  | { readonly type: 'run'; readonly event: RunEvent }
  | { readonly type: 'start'; readonly index: number; readonly total: number; readonly name: string }
  | { readonly type: 'result'; readonly index: number; readonly total: number; readonly result: FreshnessResult; readonly now: Date };

export interface SourceFreshnessRun {
  readonly results: readonly FreshnessResult[];
  /** The project's on-run-start / on-run-end hooks that ran around the checks. */
  readonly hooks: readonly ProjectHookResult[];
  /** The "now" ages are measured from: the `as_of` var (a bare date: the end of that day), else the clock. */
  readonly now: Date;
  readonly asOf: boolean;
  /** Where sources.json was written (absolute). */
  readonly path: string;
  readonly elapsedSeconds: number;
  /** 1 when a table is past error_after or could not be checked, else 0 (a warning passes). */
  readonly exitCode: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Python's datetime.isoformat() of a UTC time, as dbt writes times in sources.json (`2016-09-19T14:45:51+00:00`). */
export function isoUtc(d: Date): string {
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${base}${d.getUTCMilliseconds() === 0 ? '' : `.${pad(d.getUTCMilliseconds(), 3)}000`}+00:00`;
}

/** Under the `as_of` var only rows landed by then count (as the models see them): the condition on loaded_at_field. */
export interface LandedBy {
  /** `2026-10-06` (a bare-date as_of: before the next day) or `2026-10-05 12:00:00` (at or before it). */
  readonly bound: string;
  readonly inclusive: boolean;
}

/** How max(loaded_at) is found: dbt's loaded_at_query (rendered, `this` the source table) beats loaded_at_field. */
interface Probe {
  readonly sql: string;
  /** What the result lines and messages call it: `max(updated_at)`, or `loaded_at_query`. */
  readonly label: string;
}

function probeOf(manifest: Manifest, db: Warehouse, source: SourceNode, criteria: FreshnessCriteria, landedBy: LandedBy | undefined, run: RunContext): Probe | string {
  const relation = qualifiedName(source.schema, source.alias);
  const query = source.settings.loadedAtQuery;
  if (query !== undefined && query.trim() !== '') {
    // As dbt's collect_freshness_custom_sql: the query's first value is max_loaded_at; no filter, no as_of bound (the query decides).
    const state = { ...operationRenderState(manifest, { name: `loaded_at_query of source ${source.name}`, path: source.table.location.file, db, run }), self: new Relation(source.alias, 'table', undefined, source.schema) };
    const rendered = manifest.jinja.render(`${source.table.location.file}#${source.name}.loaded_at_query`, query, state).trim().replace(/;\s*$/, '');
    return { sql: `with source_query as (\n${rendered}\n)\nselect (select * from source_query) as max_loaded_at`, label: 'loaded_at_query' };
  }
  const field = source.settings.loadedAtField;
  if (field === undefined || field.trim() === '') {
    return `Could not compute freshness for source ${source.name}: it has no loaded_at_field (nor loaded_at_query), and SQLite keeps no load times of its own (set loaded_at_field to the column, or SQL expression, that says when each row landed)`;
  }
  // A loaded_at_query may read anything; max(loaded_at_field) reads the table, which must exist.
  if (relationKind(db, source.alias, source.schema) === null) {
    return `Could not compute freshness for source ${source.name}: its relation ${relation} does not exist`;
  }
  // As dbt's collect_freshness: loaded_at_field and filter are SQL, written into the query as they are.
  const conditions = [
    ...(criteria.filter === null ? [] : [`(${criteria.filter})`]),
    ...(landedBy === undefined ? [] : [`(${field}) ${landedBy.inclusive ? '<=' : '<'} ${quoteLiteral(landedBy.bound)}`]),
  ];
  const where = conditions.length === 0 ? '' : ` where ${conditions.join(' and ')}`;
  return { sql: `select max(${field}) from ${relation}${where}`, label: `max(${field})` };
}

function checkOne(manifest: Manifest, db: Warehouse, source: SourceNode, criteria: FreshnessCriteria, now: Date, landedBy: LandedBy | undefined, run: RunContext): Omit<FreshnessResult, 'executionTime' | 'startedAt' | 'completedAt'> {
  const base = { uniqueId: source.uniqueId, name: source.name, criteria, loadedAtField: source.settings.loadedAtField, loadedAtQuery: source.settings.loadedAtQuery };
  const fail = (message: string) => ({ ...base, status: 'runtime error' as const, message });
  let probe: Probe | string;
  let value: unknown;
  try {
    probe = probeOf(manifest, db, source, criteria, landedBy, run);
    if (typeof probe === 'string') return fail(probe);
    value = db.value(probe.sql);
  } catch (err) {
    return fail(`Could not compute freshness for source ${source.name}: ${isProjectError(err) ? err.format() : err instanceof Error ? err.message : String(err)}`);
  }
  const usesQuery = probe.label === 'loaded_at_query';
  if (value === null || value === undefined) {
    if (usesQuery) return fail(`Could not compute freshness for source ${source.name}: its loaded_at_query returned no value (null)`);
    const field = source.settings.loadedAtField!;
    return fail(`Expected a non-null value when querying field '${field}' of table ${qualifiedName(source.schema, source.alias)} but received value 'null' instead (no row${criteria.filter === null ? '' : ` matches the filter ${criteria.filter}`}${landedBy === undefined ? '' : `${criteria.filter === null ? '' : ' and'} landed by the as_of var`})`);
  }
  const maxLoadedAt = tryParseTime(String(value));
  if (maxLoadedAt === undefined) {
    return fail(`Could not compute freshness for source ${source.name}: ${probe.label} is ${JSON.stringify(value)}, not a date or time (UTC, like 2024-09-01 or 2024-09-01 13:00:00)`);
  }
  const ageSeconds = (now.getTime() - maxLoadedAt.getTime()) / 1000;
  return { ...base, status: freshnessStatus(criteria, ageSeconds), probe: probe.label, maxLoadedAtValue: value, maxLoadedAt, ageSeconds };
}

const criteriaJson = (c: FreshnessCriteria) => {
  const time = (t: FreshnessTime | null) => (t === null ? null : { count: t.count, period: t.period });
  return { warn_after: time(c.warnAfter), error_after: time(c.errorAfter), filter: c.filter };
};

/** dbt's sources.json (schema sources/v3): one result per source table checked. */
function sourcesJson(run: Omit<SourceFreshnessRun, 'path' | 'exitCode' | 'hooks'>, invocationId: string): unknown {
  return {
    metadata: {
      dbt_schema_version: 'https://schemas.getdbt.com/dbt/sources/v3.json',
      dbt_version: DBT_VERSION,
      mini_dbt_version: MINI_DBT_VERSION,
      generated_at: clockNow().toISOString(),
      invocation_id: invocationId,
      env: {},
    },
    results: run.results.map((r) => (r.status === 'runtime error'
      ? { unique_id: r.uniqueId, error: r.message, status: r.status }
      : {
        unique_id: r.uniqueId,
        max_loaded_at: isoUtc(r.maxLoadedAt!),
        snapshotted_at: isoUtc(run.now),
        max_loaded_at_time_ago_in_s: r.ageSeconds,
        status: r.status,
        criteria: criteriaJson(r.criteria),
        adapter_response: {},
        timing: [
          { name: 'compile', started_at: r.startedAt.toISOString(), completed_at: r.startedAt.toISOString() },
          { name: 'execute', started_at: r.startedAt.toISOString(), completed_at: r.completedAt.toISOString() },
        ],
        thread_id: 'Thread-1',
        execution_time: r.executionTime,
      })),
    elapsed_time: run.elapsedSeconds,
  };
}

/**
 * dbt's `source freshness`: for each selected source table with freshness criteria, max(loaded_at_field)
 * (under its filter) against "now", judged pass / warn / error; target/sources.json (or --output) in dbt's shape.
 * Read-only, unless the project has on-run-start / on-run-end hooks: dbt runs them around the checks
 * (its flag source_freshness_run_project_hooks, true by default), on a writable connection.
 */
export function sourceFreshness(options: SourceFreshnessOptions = {}): SourceFreshnessRun {
  const started = clockNow();
  const { project, manifest, graph } = loadSession(options);
  const asOfVar = manifest.vars.as_of;
  const asOf = asOfVar !== undefined && asOfVar !== null && asOfVar !== '';
  const now = microbatchNow(asOfVar, started);
  const landedBy: LandedBy | undefined = asOf ? { bound: boundText(now), inclusive: !/^\d{4}-\d{2}-\d{2}$/.test(String(asOfVar).trim()) } : undefined;
  const selected = selectNodes(graph, { select: options.select, exclude: options.exclude, resourceTypes: ['source'] });
  const checked = [...manifest.sources.values()]
    .filter((s) => selected.has(s.uniqueId) && s.settings.freshness !== null)
    .sort((a, b) => a.uniqueId.localeCompare(b.uniqueId));
  const results: FreshnessResult[] = [];
  const hooked = checked.length > 0 && runsProjectHooks(project);
  // dbt's query-comment: the run's ('master') on the hooks, each source's own on its check.
  const master = checked.length > 0 ? renderQueryComment(manifest, undefined, 'master') : undefined;
  const db = checked.length > 0 ? withQueryComments(openProjectWarehouse(project, { readonly: !hooked })) : undefined;
  if (db) setQueryComment(db, master);
  const run: RunContext = { ...PARSE_CONTEXT, command: 'source freshness', invocationId: randomUUID(), startedAt: started, vars: manifest.vars };
  const hooks: ProjectHookResult[] = [];
  const emit = (event: RunEvent) => options.onEvent?.({ type: 'run', event });
  try {
    // dbt's default (skip_nodes_if_on_run_start_fails false): a failed on-run-start hook fails the command, the checks still run.
    if (hooked) hooks.push(...runProjectHooks({ db: db!, manifest, which: 'on-run-start', run, emit }));
    checked.forEach((source, i) => {
      options.onEvent?.({ type: 'start', index: i + 1, total: checked.length, name: source.name });
      const startedAt = clockNow();
      setQueryComment(db!, renderQueryComment(manifest, source, source.uniqueId, run));
      const outcome = checkOne(manifest, db!, source, source.settings.freshness!, now, landedBy, run);
      setQueryComment(db!, master);
      const completedAt = clockNow();
      const result: FreshnessResult = { ...outcome, startedAt, completedAt, executionTime: (completedAt.getTime() - startedAt.getTime()) / 1000 };
      results.push(result);
      options.onEvent?.({ type: 'result', index: i + 1, total: checked.length, result, now });
    });
    if (hooked) hooks.push(...runProjectHooks({ db: db!, manifest, which: 'on-run-end', run, emit, endLocals: endLocalsOf(results) }));
  } finally {
    db?.close();
  }
  const elapsedSeconds = (clockNow().getTime() - started.getTime()) / 1000;
  const path = options.output !== undefined ? (isAbsolute(options.output) ? options.output : resolve(options.output)) : join(project.root, project.paths.target, 'sources.json');
  writeArtifact(project.root, path, `${JSON.stringify(sourcesJson({ results, now, asOf, elapsedSeconds }, randomUUID()), null, 2)}\n`);
  const failedHooks = hooks.filter((h) => h.status === 'error');
  const exitCode = failedHooks.length > 0 || results.some((r) => r.status === 'error' || r.status === 'runtime error') ? 1 : 0;
  return { results, hooks, now, asOf, path, elapsedSeconds, exitCode };
}

/** on-run-end's context after the checks, as dbt gives it: a result per source table checked (no relation is built: no schemas). */
function endLocalsOf(results: readonly FreshnessResult[]): Record<string, unknown> {
  return {
    results: results.map((r) => ({
      node: { unique_id: r.uniqueId, name: r.name.split('.').slice(1).join('.'), source_name: r.name.split('.')[0], resource_type: 'source' },
      status: r.status,
      message: r.message ?? null,
      execution_time: r.executionTime,
      max_loaded_at: r.maxLoadedAt ? isoUtc(r.maxLoadedAt) : null,
      age: r.ageSeconds ?? null,
    })),
    schemas: [],
    database_schemas: [],
  };
}

/**
 * Whether `source freshness` runs the project's on-run-start / on-run-end hooks: dbt's behaviour flag
 * source_freshness_run_project_hooks (project file `flags:`), true by default; turned off, the hooks are
 * skipped with dbt's deprecation warning.
 */
function runsProjectHooks(project: Project): boolean {
  const hasHooks = (project.onRunStart?.length ?? 0) + (project.onRunEnd?.length ?? 0) > 0;
  if (!hasHooks) return false;
  if (project.flags?.source_freshness_run_project_hooks !== false) return true;
  warnUser(`${project.configFile}: flags: source_freshness_run_project_hooks is false, so source freshness skips the project's on-run-start and on-run-end hooks (a legacy behaviour dbt deprecates; remove the flag to run them)`, 'SourceFreshnessProjectHooksNotRun');
  return false;
}
