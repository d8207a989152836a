/**
 * The graph cache: an unchanged project's `ls` needs only its graph, so the
 * graph of the last load `ls` did is kept whole (target/graph_cache.json)
 * with a stamp of every input file (input-stamps.ts). When the stamp is the
 * same and so are the other inputs, the graph is read back instead of
 * loading the project: the files are stat'ed, not read, and nothing is
 * rendered, merged or hashed by content. Other commands load the project
 * (through the parse cache, parse-cache.ts) and leave this file alone.
 *
 * The inputs a load depends on, all in the cache's key or its stamps:
 *
 * - the files: the project file (project.yml or dbt_project.yml; the one
 *   absent stamped as absent), packages.yml, dependencies.yml,
 *   package-lock.yml, selectors.yml, every profiles.yml where one is looked
 *   for (these also before the load: one that comes or goes during it is
 *   seen), and every file and folder under the model, seed, macro, test,
 *   snapshot and docs paths and the packages' install path (a load during
 *   which a file it read went away is not kept);
 * - the load options (--vars, --database, --profiles-dir, --profile,
 *   --target), the current directory (relative paths, profiles.yml), the
 *   project folder;
 * - the environment: HOME, every DBT_ and MINI_DBT_ variable, and the
 *   variables the project's templates read with env_var() (all of them
 *   when a name is computed);
 * - the tool itself (tool-fingerprint.ts).
 *
 * A load that warned, or whose result depends on more than that (a template
 * reaching for `modules.`, a capture that is not plain JSON: the parse
 * cache's rules), is not kept; nor is one during which, or less than the
 * trust margin (2 s) before which, any stamped file or folder changed: the
 * next `ls` loads from the files again, and keeps its graph once they
 * settled (input-stamps.ts).
 */
import { hash as oneShotHash } from 'node:crypto';
import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeCacheFile } from './write-cache-file.js';
import { now } from '../clock.js';
import type { Manifest } from '../compile/manifest.js';
import { collectUserWarnings, warnUser } from '../errors/user-warning.js';
import { buildGraph } from '../graph/build-graph.js';
import type { Graph } from '../graph/graph-node.js';
import { isPlainJson } from '../project/is-plain-json.js';
import type { Project } from '../project/project.js';
import { envNamesRead, envValues, toolEnv } from './env-read.js';
import { isOldEnough, stampInputs } from './input-stamps.js';
import { loadThroughParseCache, type LoadOptions } from './parse-cache.js';
import { decodeGraph, encodeGraph, graphCacheProblem, type StoredGraph } from './graph-cache-shape.js';
import { toolFingerprint } from './tool-fingerprint.js';
import type { VouchedInputs } from './ls-answer-cache.js';

const FORMAT = 1;
const FILE_NAME = 'graph_cache.json';
const ROOT_FILES = ['project.yml', 'dbt_project.yml', 'packages.yml', 'dependencies.yml', 'package-lock.yml', 'selectors.yml'];

export interface GraphCacheFile {
  readonly format: number;
  /** The hash of every input but the files (inputKey). */
  readonly key: string;
  /** The environment variables the templates read ('*': all). */
  readonly envNames: readonly string[] | '*';
  /** The folders and files stamped (absolute), and the digest of their stamp (input-stamps.ts). */
  readonly dirs: readonly string[];
  readonly files: readonly string[];
  readonly digest: string;
  /** The graph's nodes, and each model's materialization (its settings'). */
  readonly graph: StoredGraph;
}

export interface LoadedGraph {
  readonly graph: Graph;
  /** A model's materialization. */
  readonly materialized: ReadonlyMap<string, string>;
  /** The full load, when there was one (not from the graph cache). */
  readonly manifest?: Manifest;
  readonly fromCache: boolean;
  /** What the graph cache vouches for, when it served this graph or kept it (ls-answer-cache.ts). */
  readonly vouched?: VouchedInputs;
}

export interface GraphCacheOptions extends LoadOptions {
  /** The trust margin (input-stamps.ts); tests shorten it. */
  readonly trustMarginMs?: number;
}

/** Where a project's graph cache lives. */
export function graphCachePath(project: Project): string {
  return join(project.root, project.paths.target, FILE_NAME);
}

/**
 * The project's graph: from the graph cache when no input changed, else
 * loaded (through the parse cache), and kept for the next call.
 */
export function loadGraphWithCache(projectDir: string, options: GraphCacheOptions = {}): LoadedGraph {
  if (options.partialParse === false) {
    const { manifest } = loadThroughParseCache(projectDir, options);
    return { graph: buildGraph(manifest.graphNodes), materialized: materializedOf(manifest), manifest, fromCache: false };
  }
  const root = resolve(projectDir);
  const guess = join(root, 'target', FILE_NAME);
  const stored = readGraphCache(guess);
  const current = stored && stored.key === inputKey(root, options, stored.envNames) ? stampInputs(stored.dirs, stored.files) : undefined;
  if (stored && current?.digest === stored.digest) {
    const decoded = decodeGraph(stored.graph);
    if (decoded) {
      const vouched: VouchedInputs = { dirs: stored.dirs, files: stored.files, stamp: current.raw, envNames: stored.envNames, graphCachePath: guess };
      return { graph: buildGraph(decoded.nodes), materialized: decoded.materialized, fromCache: true, vouched };
    }
  }
  const loadedAt = now().getTime();
  // The files read from known places are stamped before the load too: one created or removed meanwhile is seen.
  const before = stampInputs([], fixedFiles(root, options)).digest;
  let warned = false;
  let restore = collectUserWarnings(function forward(message, event) {
    warned = true;
    restore();
    try {
      warnUser(message, event);
    } finally {
      restore = collectUserWarnings(forward);
    }
  });
  let load: ReturnType<typeof loadThroughParseCache>;
  try {
    load = loadThroughParseCache(projectDir, options);
  } finally {
    restore();
  }
  const { project, manifest } = load;
  const materialized = materializedOf(manifest);
  const path = graphCachePath(project);
  let vouched: VouchedInputs | undefined;
  if (!warned && path === guess && load.reusable() && isPlainJson(manifest.graphNodes)) {
    const dirs = projectDirs(project);
    const files = fixedFiles(root, options);
    const present = new Set<string>();
    const stamp = stampInputs(dirs, files, present);
    // Kept only when every input was already old when the load began, none of the files looked for came or went
    // meanwhile, and every file the load read is still there (a folder removed during the load leaves no newer time).
    if (isOldEnough(stamp, loadedAt, options.trustMarginMs) && stampInputs([], files).digest === before && filesRead(project).every((file) => present.has(file))) {
      const envNames = envNamesRead(templatesOf(project, dirs, files));
      writeCacheFile(path, JSON.stringify({ format: FORMAT, key: inputKey(root, options, envNames), envNames, dirs, files, digest: stamp.digest, graph: encodeGraph(manifest.graphNodes, materialized) } satisfies GraphCacheFile));
      vouched = { dirs, files, stamp: stamp.raw, envNames, graphCachePath: path };
    }
  }
  return { graph: buildGraph(manifest.graphNodes), materialized, manifest, fromCache: false, ...(vouched ? { vouched } : {}) };
}

function materializedOf(manifest: Manifest): Map<string, string> {
  return new Map([...manifest.models.values()].map((m) => [m.uniqueId, m.settings.materialized]));
}

/** Every input but the files. */
function inputKey(root: string, options: LoadOptions, envNames: readonly string[] | '*'): string {
  const inputs = {
    format: FORMAT,
    tool: toolFingerprint(),
    cwd: process.cwd(),
    root,
    options: { vars: options.vars ?? {}, database: options.database, profilesDir: options.profilesDir, profile: options.profile, target: options.target },
    env: toolEnv(),
    read: envValues(envNames),
  };
  return oneShotHash('sha256', JSON.stringify(inputs), 'hex');
}

/** The folders whose files the load may have read: the model, seed, macro, test, snapshot and docs paths and the packages. */
function projectDirs(project: Project): string[] {
  const { paths, root } = project;
  const dirs = [...paths.models, ...paths.seeds, ...paths.macros, ...paths.tests, ...(paths.snapshots ?? []), ...(paths.docs ?? []), project.packagesInstallPath ?? 'dbt_packages'];
  return [...new Set(dirs.map((dir) => resolve(root, dir)))];
}

/** The files the load read that its graph depends on (absolute): models, macros, seeds, tests, snapshots, fixtures, property files. */
export function filesRead(project: Project): string[] {
  const { root } = project;
  const properties = [...project.modelProperties.values(), ...project.seedProperties.values(), ...project.sources].map((p) => resolve(root, p.location.file));
  return [
    ...[...project.models, ...project.macros, ...project.seeds, ...project.singularTests, ...(project.snapshots ?? []), ...(project.fixtures?.values() ?? [])].map((f) => resolve(f.absPath)),
    ...properties,
  ];
}

/** The files looked for in known places: the project file, the package lists, profiles.yml wherever it is looked for. */
function fixedFiles(root: string, options: LoadOptions): string[] {
  const profileDirs = [options.profilesDir, process.env.DBT_PROFILES_DIR, process.cwd(), root, join(homedir(), '.dbt')].filter((d): d is string => d !== undefined && d !== '');
  return [...ROOT_FILES.map((f) => join(root, f)), ...profileDirs.map((d) => join(resolve(d), 'profiles.yml'))];
}

/** The texts whose env_var() calls the load depends on: every model, macro, test and snapshot, and every yml file (the project's, the profiles', properties). */
function templatesOf(project: Project, dirs: readonly string[], files: readonly string[]): string[] {
  const texts = [
    ...project.models.map((m) => m.rawSql),
    ...project.macros.map((m) => m.source),
    ...project.singularTests.map((t) => t.rawSql),
    ...(project.snapshots ?? []).map((s) => s.rawSql),
  ];
  const ymlFiles = [...files, ...dirs.flatMap((dir) => ymlUnder(dir))];
  for (const file of new Set(ymlFiles)) {
    if (!/\.ya?ml$/.test(file)) continue;
    try {
      texts.push(readFileSync(file, 'utf8'));
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'ENOENT') texts.push('env_var(?)'); // unreadable: as reading any variable
    }
  }
  return texts;
}

/** Every yml file under `dir` (symlinks followed; a folder reached twice is listed twice, and read once). */
function ymlUnder(dir: string, depth = 0): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (/\.ya?ml$/.test(entry.name)) out.push(path);
    else if ((entry.isDirectory() || entry.isSymbolicLink()) && depth < 40) out.push(...ymlUnder(path, depth + 1));
  }
  return out;
}

/** The stored graph cache; null when there is none or it is not one of this format (it is then rewritten). */
function readGraphCache(path: string): GraphCacheFile | null {
  let file: unknown;
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return null; // none, or cut short: rebuilt
  }
  return graphCacheProblem(file, FORMAT) === undefined ? (file as GraphCacheFile) : null;
}

