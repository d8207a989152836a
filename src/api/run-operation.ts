import { randomUUID } from 'node:crypto';
import { graphContext } from '../state/graph-context.js';
import { now } from '../clock.js';
import { operationRenderState } from '../compile/operation-render-state.js';
import { openProjectWarehouse } from '../engine/open-warehouse.js';
import { setQueryComment, withQueryComments } from '../engine/query-comment-connection.js';
import { renderQueryComment } from '../compile/render-query-comment.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { isProjectError, ProjectError } from '../errors/project-error.js';
import { backfillOfVars, PARSE_CONTEXT, type RunContext } from '../invocation/run-context.js';
import { writeOperationResults } from '../state/write-operation-results.js';
import { loadSession, type SessionOptions } from './session.js';
import { attachDeferredSchemas, deferralOf } from './defer-state.js';

export interface RunOperationOptions extends SessionOptions {
  /** The macro's name (or `<project>.<name>`). */
  readonly macro: string;
  /** Its keyword arguments (--args). */
  readonly args?: Readonly<Record<string, unknown>>;
  /** The macro's log() output. */
  readonly log?: (message: string) => void;
  /** The macro's debug-level log() output (log() without info=True). */
  readonly debug?: (message: string) => void;
  /** The macro's print() output. */
  readonly print?: (text: string) => void;
}

export interface RunOperationResult {
  readonly macro: string;
  /** What the macro rendered (dbt ignores it; a `{{ return(...) }}` value is here as text). */
  readonly output: string;
  readonly executionTime: number;
}

/**
 * dbt's run-operation: call a project macro with keyword arguments in the dbt context (target, var,
 * run_query, statement, log, ref, source), against the warehouse opened read-write, each statement in
 * its own transaction as SQLite's autocommit runs it. A macro that does not exist is a usage error
 * (exit 2, with the closest name); one that fails is exit 1, as in dbt.
 */
export function runOperation(options: RunOperationOptions): RunOperationResult {
  const session = loadSession(options);
  const { manifest, project } = session;
  const [pkg, name] = options.macro.includes('.') ? options.macro.split('.', 2) as [string, string] : [undefined, options.macro];
  const known = manifest.jinja.macroNames;
  // As dbt's find_macro_by_name: the named package, else the root project, then any installed package.
  const namespaces = manifest.jinja.namespaces;
  const owner = pkg !== undefined
    ? (namespaces.has(pkg) && namespaces.names(pkg).includes(name) ? pkg : undefined)
    : known.includes(name) ? project.name : namespaces.packageNames().find((p) => p !== 'dbt' && p !== project.name && namespaces.names(p).includes(name));
  if (owner === undefined) {
    const candidates = pkg !== undefined && namespaces.has(pkg) ? namespaces.names(pkg) : namespaces.packageNames().filter((p) => p !== 'dbt').flatMap((p) => namespaces.names(p));
    throw new ProjectError(`could not find a macro with the name '${name}' in ${pkg !== undefined ? `package '${pkg}'` : 'any package'}.${didYouMeanSuffix(name, candidates)}`, {
      hint: known.length > 0 ? `the project's macros: ${[...known].sort().join(', ')}` : 'the project defines no macros (macros/*.sql)',
    });
  }
  const qualified = owner === project.name ? name : `${owner}.${name}`;
  const path = project.macros.find((m) => (m.package ?? project.name) === owner && new RegExp(`\\{%-?\\s*macro\\s+${name}\\s*\\(`).test(m.source))?.path ?? 'macros';
  // dbt's query-comment on the operation's statements (its connection is named macro_<name>, as dbt names it).
  const comment = renderQueryComment(manifest, undefined, `macro_${name}`);
  const db = withQueryComments(openProjectWarehouse(project, { busyTimeoutMs: options.busyTimeoutMs }));
  setQueryComment(db, comment);
  // --defer: the macro's ref()s to nodes this target has not built (with --favor-state, to any node) read the state's relations.
  const defer = deferralOf(options, manifest);
  attachDeferredSchemas(db, defer);
  const run: RunContext = { ...PARSE_CONTEXT, command: 'run-operation', invocationId: randomUUID(), startedAt: now(), backfill: backfillOfVars(manifest.vars), vars: manifest.vars, ...(defer ? { defer, selectedResources: [] } : {}) };
  const t0 = performance.now();
  const record = (status: 'success' | 'error', message: string | null) => writeOperationResults(project, {
    invocationId: run.invocationId, uniqueId: `macro.${owner}.${name}`, status, message, executionTime: (performance.now() - t0) / 1000,
    startedAt: run.startedAt.toISOString(), args: options.args ?? {},
  });
  let output: string;
  try {
    // var() as in dbt's macro context: the macro's package's vars (its project file's, then the root's scoped to it, then --vars).
    const vars = owner === project.name ? undefined : manifest.packageVars?.get(owner);
    const state = operationRenderState(manifest, { name: `macro '${name}'`, path, db, run, log: options.log, debug: options.debug, print: options.print, graph: () => graphContext(manifest, session.graph), ...(vars ? { vars } : {}) });
    const args = options.args && Object.keys(options.args).length > 0 ? [{ ...options.args, __keywords: true }] : [];
    output = manifest.jinja.callMacro(qualified, args, state, path);
  } catch (err) {
    const message = isProjectError(err) ? err.format() : err instanceof Error ? err.message : String(err);
    record('error', message);
    throw new ProjectError(`Encountered an error while running operation: ${message}`, { exitCode: 1 });
  } finally {
    db.close();
  }
  record('success', null);
  return { macro: name, output, executionTime: (performance.now() - t0) / 1000 };
}
