import { loadWithParseCache, type LoadOptions, type LoadPhase } from '../parse/parse-cache.js';
import { manifestWithVars } from '../parse/capture-vars.js';
import type { Manifest } from '../compile/manifest.js';
import { buildGraph } from '../graph/build-graph.js';
import type { Graph } from '../graph/graph-node.js';
import type { Project } from '../project/project.js';
import { isPlainJson } from '../project/is-plain-json.js';
import type { DeferOptions } from './defer-state.js';

export interface SessionOptions extends DeferOptions {
  /** The project folder (default: the current directory). */
  readonly projectDir?: string;
  /** The SQLite file, overriding the project's `database:`. */
  readonly database?: string;
  /** --vars, already parsed. */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** Milliseconds to wait for another writer (default: project busy-timeout, else 5000). */
  readonly busyTimeoutMs?: number;
  /** --profiles-dir, --profile, --target: the profile's target (profiles.yml) the command runs against. */
  readonly profilesDir?: string;
  readonly profile?: string;
  readonly target?: string;
  /** false (dbt's --no-partial-parse): the parse cache (target/partial_parse.json) is neither read nor written. */
  readonly partialParse?: boolean;
  /** dbt's --target-path: where artifacts, compiled SQL and the caches go, instead of the project file's target-path. */
  readonly targetPath?: string;
  /** dbt's --selector: a named selector of selectors.yml, used instead of --select and --exclude. */
  readonly selector?: string;
  /** dbt's --state: the target folder of an earlier invocation, which `state:` and `result:` selectors compare with (api/selection-state.ts). */
  readonly state?: string;
  /** Told when each phase starts: load, capture, parse-cache, graph (then render and plan, model by model, in compile); for timing them from outside (the bench). */
  readonly onPhase?: (phase: LoadPhase) => void;
}

export interface Session {
  readonly project: Project;
  readonly manifest: Manifest;
  readonly graph: Graph;
}

/** Load, capture and graph the project (no warehouse needed). */
export function loadSession(options: SessionOptions): Session {
  const loaded = loadWithParseCache(options.projectDir ?? process.cwd(), { ...sessionLoadOptions(options), ...(options.onPhase ? { onPhase: options.onPhase } : {}) });
  options.onPhase?.('graph');
  return withBusyTimeout({ project: loaded.project, manifest: loaded.manifest, graph: buildGraph(loaded.manifest.graphNodes) }, options.busyTimeoutMs);
}

/** What the project's load takes of the session options. */
export function sessionLoadOptions(options: SessionOptions): LoadOptions {
  return { database: options.database, vars: options.vars, profilesDir: options.profilesDir, profile: options.profile, target: options.target, ...(options.partialParse === false ? { partialParse: false } : {}), ...(options.targetPath !== undefined ? { targetPath: options.targetPath } : {}) };
}

/**
 * --busy-timeout rides on the project, so every warehouse the session opens
 * (a backfill's runs, a replay's copy and its nightly runs) waits as long.
 */
export function withBusyTimeout<S extends Session>(session: S, busyTimeoutMs: number | undefined): S {
  if (busyTimeoutMs === undefined || busyTimeoutMs === session.project.busyTimeoutMs) return session;
  const project = { ...session.project, busyTimeoutMs };
  return { ...session, project, manifest: { ...session.manifest, project } };
}

/**
 * The same session with other --vars: only the models whose capture read a
 * var that changes value are captured again (parse/capture-vars.ts); the
 * others, and the graph while no capture changed, are reused, so replaying
 * many nights or backfills in one process costs one load.
 */
export function withVars(session: Session, vars: Readonly<Record<string, unknown>>): Session {
  // The last few answers per session are kept: the same vars again (a run after a run, a backfill's ranges,
  // a process alternating nightly runs and backfills) reuse theirs.
  const key = isPlainJson(vars) ? JSON.stringify(vars) : undefined;
  let recent = recentWithVars.get(session);
  const hit = key === undefined ? undefined : recent?.get(key);
  if (hit && recent && key !== undefined) {
    recent.delete(key);
    recent.set(key, hit); // most recently used last
    return hit;
  }
  const manifest = manifestWithVars(session.manifest, vars);
  const answer = { ...session, manifest, graph: manifest.models === session.manifest.models ? session.graph : buildGraph(manifest.graphNodes) };
  if (key !== undefined) {
    if (!recent) recentWithVars.set(session, (recent = new Map()));
    recent.set(key, answer);
    if (recent.size > RECENT_VARS) recent.delete(recent.keys().next().value!);
  }
  return answer;
}

/** How many --vars answers a session keeps. */
const RECENT_VARS = 4;

const recentWithVars = new WeakMap<Session, Map<string, Session>>();
