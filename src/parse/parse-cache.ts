/**
 * The parse cache: pass 1 (rendering every model to capture its refs,
 * sources and config()) is most of the cost of loading a large project, and
 * its result only depends on the inputs. They are hashed on every load:
 *
 * - once for the whole project: the tool itself (its version and build), the
 *   project file's settings (its vars among them), every macro, every
 *   property yml, and the environment variables templates read with env_var();
 * - once per model: its path and SQL text; and, stored with its capture, the
 *   value of every var its render read (--vars included, set or not:
 *   capture-vars.ts).
 *
 * When the project hash matches the one in target/partial_parse.json, a
 * model whose own hash matches, and whose vars have the values it was
 * captured with, reuses its stored capture; the others are rendered (dbt's
 * partial parsing, but keyed on content, so never stale). A model that reads
 * no var is reused under any --vars.
 * Captures that are not plain JSON, and models or macros that reach for the
 * clock or the outside world (`modules.`), are never stored. The yml files
 * parsed on the way are stored too, by content (src/project/yaml-memo.ts).
 */
// One-shot hashing (Node 20.12+): no Hash object per call, which counts at 10,000 models.
import { writeCacheFile } from './write-cache-file.js';
import { useTargetEngine } from '../engine/current-engine.js';
import { hash as oneShotHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { warnUser } from '../errors/user-warning.js';
import { isPlainJson } from '../project/is-plain-json.js';
import { plainJsonCopy } from '../project/plain-json-copy.js';
import { requireInstalledPackages } from './require-installed-packages.js';
import { loadProject, type LoadProjectOptions } from '../project/load-project.js';
import type { Project } from '../project/project.js';
import { primeYaml, withYamlTracking, type MemoizedYaml } from '../project/yaml-memo.js';
import { resolveVars } from '../compile/resolve-vars.js';
import type { CaptureOptions } from './capture-project.js';
import type { ModelCapture } from './capture-model.js';
import { profileRenderer } from './render-yml.js';
import { captureRemembered, fingerprintsOf, sameVars, varsRead, type VarFingerprint } from './capture-vars.js';
import type { Manifest } from '../compile/manifest.js';
import { parseCacheProblem } from './parse-cache-shape.js';
import { envNamesRead, envValues } from './env-read.js';
import { toolFingerprint } from './tool-fingerprint.js';

// Entries carry the values of the vars their capture read; a file written before they did has another
// projectKey (--vars were among its inputs), so none of its entries is trusted: the format stays 3.
const FORMAT = 3;
const UNCACHEABLE_TEXT = /\bmodules\s*\./;
/** Whether a template reaches for modules.* (only a text naming `modules` is searched: the pattern's \b made it the slowest step of storing 10,000 models). */
const UNCACHEABLE = { test: (text: string): boolean => text.includes('modules') && UNCACHEABLE_TEXT.test(text) };

interface CacheFile {
  readonly format: number;
  readonly projectKey: string;
  /** key: the hash of the model's path and SQL; vars: the value of each var its capture read, then. */
  readonly models: Record<string, { readonly key: string; readonly capture: ModelCapture; readonly vars?: Record<string, VarFingerprint> }>;
  /** The project's macro names (valid with projectKey, which covers every macro's text). */
  readonly macroNames: readonly string[];
  /** The parsed property and project yml files, by content (yaml-memo.ts). */
  readonly yaml: Record<string, MemoizedYaml>;
}

/** Where a project's parse cache lives. */
export function parseCachePath(project: Project): string {
  return join(project.root, project.paths.target, 'partial_parse.json');
}

export interface LoadOptions extends LoadProjectOptions, CaptureOptions {
  /** false (dbt's --no-partial-parse): parse everything, neither reading nor writing the cache. */
  readonly partialParse?: boolean;
  /** Told when each phase of the load starts (the bench times them: compile-plan-child.ts); nothing here reads a clock. */
  readonly onPhase?: (phase: LoadPhase) => void;
}

/** The phases of a load, then of a compile (api/compile.ts), as onPhase reports them. */
export type LoadPhase = 'load' | 'capture' | 'parse-cache' | 'graph' | 'render' | 'plan';

/**
 * loadProject then captureProject, through the parse cache: yml files whose
 * text is unchanged are not parsed again, models whose inputs are unchanged
 * are not rendered again; what was parsed or rendered is stored for the next
 * load.
 */
export function loadWithParseCache(projectDir: string, options: LoadOptions = {}): { project: Project; manifest: Manifest } {
  const { project, manifest } = loadThroughParseCache(projectDir, options);
  return { project, manifest };
}

export interface CachedLoad {
  readonly project: Project;
  readonly manifest: Manifest;
  /**
   * Whether the load's whole result is a function of its inputs alone (files,
   * vars, environment, the tool): no macro or model reaches for the outside
   * world, and every capture could be stored. Computed on demand.
   */
  readonly reusable: () => boolean;
}

/** loadWithParseCache, also telling whether its result may be kept whole (graph-cache.ts). */
export function loadThroughParseCache(projectDir: string, options: LoadOptions = {}): CachedLoad {
  options.onPhase?.('load');
  if (options.partialParse === false) {
    const project = loadProject(projectDir, projectOptions(options));
    useTargetEngine(project.target);
    requireInstalledPackages(project, project.packagesInstallPath);
    options.onPhase?.('capture');
    return { project, manifest: captureRemembered(project, options), reusable: () => false };
  }
  const guess = readCache(join(resolve(projectDir), 'target', 'partial_parse.json'), projectDir);
  if (guess) primeYaml(guess.yaml);
  const { result: project, used: yaml } = withYamlTracking(() => loadProject(projectDir, projectOptions(options)));
  useTargetEngine(project.target);
  requireInstalledPackages(project, project.packagesInstallPath);
  options.onPhase?.('parse-cache');
  const path = parseCachePath(project);
  const stored = path === join(resolve(projectDir), 'target', 'partial_parse.json') ? guess : readCache(path, projectDir);
  const projectKey = projectHash(project);
  if (projectKey === null) {
    options.onPhase?.('capture');
    return { project, manifest: captureRemembered(project, options), reusable: () => false };
  }

  const modelKeys = new Map(project.models.map((m) => [m.name, hash(`${m.path}\0${m.rawSql}`)]));
  const varNow = fingerprintsOf(resolveVars(project.vars, project.name, options.vars ?? {}));
  const cached = new Map<string, ModelCapture>();
  const storedModels = stored?.projectKey === projectKey ? stored.models : {};
  for (const [name, entry] of Object.entries(storedModels)) {
    if (modelKeys.get(name) === entry.key && sameVars(entry.vars ?? {}, varNow)) cached.set(name, entry.capture);
  }
  const fresh = new Map<string, ModelCapture>();
  options.onPhase?.('capture');
  const manifest = captureRemembered(project, {
    ...options,
    cached,
    macroNames: stored?.projectKey === projectKey && Array.isArray(stored.macroNames) ? stored.macroNames : undefined,
    onCapture: (name, capture) => {
      if (isPlainJson(capture)) fresh.set(name, plainJsonCopy(capture));
    },
  });
  options.onPhase?.('parse-cache');
  const storable = (): CacheFile['models'] => {
    const models: CacheFile['models'] = {};
    for (const m of project.models) {
      const capture = cached.get(m.name) ?? fresh.get(m.name);
      if (!capture || UNCACHEABLE.test(m.rawSql)) continue;
      const vars = varsRead(capture, varNow);
      // A var whose value is not plain JSON cannot be compared on the next load: not stored.
      if (Object.values(vars).every((v) => v !== null)) models[m.name] = { key: modelKeys.get(m.name)!, capture, ...(capture.vars?.length ? { vars } : {}) };
    }
    return models;
  };
  const yamlChanged = Object.keys(yaml).some((key) => !stored?.yaml[key]) || Object.keys(stored?.yaml ?? {}).length !== Object.keys(yaml).length;
  let models: CacheFile['models'] | undefined;
  if (fresh.size > 0 || cached.size !== Object.keys(storedModels).length || yamlChanged) {
    models = storable();
    writeCacheFile(path, JSON.stringify({ format: FORMAT, projectKey, models, macroNames: manifest.macroNames, yaml } satisfies CacheFile));
  }
  const reusable = (): boolean => {
    models ??= storable();
    // A package's models are not in the parse cache (captured afresh each time), but must not reach outside either.
    if (!project.models.every((m) => (m.package === undefined ? m.name in models! : !UNCACHEABLE.test(m.rawSql)))) return false;
    const others = [...project.singularTests.map((t) => t.rawSql), ...(project.snapshots ?? []).map((s) => s.rawSql), ymlTemplates(project)];
    return !others.some((text) => UNCACHEABLE.test(text));
  };
  return { project, manifest, reusable };
}

/** What loadProject takes of the load options: --database, and the profile flags with a renderer for the profile's Jinja. */
function projectOptions(options: LoadOptions): LoadProjectOptions {
  return { database: options.database, profilesDir: options.profilesDir, profile: options.profile, target: options.target, render: profileRenderer(options.vars ?? {}), ...(options.targetPath !== undefined ? { targetPath: options.targetPath } : {}) };
}

/** The stored cache; null when there is none, or (with a warning) when it is unreadable or malformed: it is rebuilt. */
function readCache(path: string, projectDir: string): CacheFile | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null; // none yet (or target/ is not a folder: the write says nothing either)
  }
  let problem: string | undefined;
  let file: unknown;
  try {
    file = JSON.parse(text) as unknown;
    problem = parseCacheProblem(file, FORMAT);
  } catch (err) {
    problem = `not valid JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  if (problem !== undefined) {
    warnUser(`ignoring the parse cache ${relative(resolve(projectDir), path) || path}: ${problem.slice(0, 200)}; it is rebuilt from the project files`);
    return null;
  }
  return (file as CacheFile).format === FORMAT ? (file as CacheFile) : null;
}


/** Everything but the model files that pass 1 depends on; null when a macro makes the capture uncacheable. */
function projectHash(project: Project): string | null {
  if (project.macros.some((m) => UNCACHEABLE.test(m.source))) return null;
  const templates = [...project.macros.map((m) => m.source), ...project.models.map((m) => m.rawSql), ymlTemplates(project)];
  const inputs = {
    tool: toolFingerprint(),
    name: project.name,
    configFile: project.configFile,
    paths: project.paths,
    databasePath: project.databasePath,
    target: project.target,
    vars: project.vars,
    modelFolderConfigs: project.modelFolderConfigs,
    seedFolderConfigs: project.seedFolderConfigs,
    macros: project.macros.map((m) => [m.path, m.source]),
    seeds: project.seeds.map((s) => s.path),
    sources: project.sources,
    modelProperties: [...project.modelProperties],
    seedProperties: [...project.seedProperties],
    env: envValues(envNamesRead(templates)),
  };
  // Where an entry sits in its yml file (location) changes no capture, and reading its line would parse the file with positions.
  return hash(JSON.stringify(inputs, (key, value: unknown) => (key === 'location' ? undefined : value)));
}

/** The yml values rendered with Jinja (render-yml.ts), whose env_var() calls the captures depend on too. */
function ymlTemplates(project: Project): string {
  const properties = [...project.modelProperties.values(), ...project.seedProperties.values()].map((p) => [p.config, p.columns]);
  return JSON.stringify([project.modelFolderConfigs, project.seedFolderConfigs, project.testFolderConfigs, properties, project.sources], (key, value: unknown) =>
    key === 'location' ? undefined : value);
}

function hash(text: string): string {
  return oneShotHash('sha256', text, 'hex');
}
