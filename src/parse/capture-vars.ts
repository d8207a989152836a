/**
 * Captures and the vars they read. Pass 1 renders a model's whole template,
 * so a `config()`, `ref()` or `source()` may depend on `var()`: a capture
 * holds only while every var its render read (set or not, directly or
 * through a macro) has the same value. Captures that read no var hold under
 * any --vars: that is what keeps a backfill or a replay (one load, many
 * --vars) from rendering every model again.
 *
 * Used twice: the parse cache stores each capture with the values of the vars
 * it read (parse-cache.ts), and `manifestWithVars` (behind the API's
 * `withVars`) captures again only the models whose vars changed value.
 */
import { resolveVars } from '../compile/resolve-vars.js';
import type { Manifest } from '../compile/manifest.js';
import { isPlainJson } from '../project/is-plain-json.js';
import { captureProject, type CaptureOptions } from './capture-project.js';
import { baseModelConfig, captureModel, sameCapture, type ModelCapture } from './capture-model.js';
import { ymlRenderingOf } from './render-yml.js';

/** The value of a var a capture read: its JSON, UNSET when not set, null when it cannot be compared (not plain JSON). */
export type VarFingerprint = string | null;

/** A var that is not set (never the JSON of a value). */
export const UNSET = '-';

/** The fingerprint of `name` among resolved `vars`, as var() sees it (a var set to undefined is not set). */
export function varFingerprint(vars: Readonly<Record<string, unknown>>, name: string): VarFingerprint {
  const value = Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : undefined;
  if (value === undefined) return UNSET;
  return isPlainJson(value) ? JSON.stringify(value) : null;
}

/** `varFingerprint` of each name among `vars`, each computed once. */
export function fingerprintsOf(vars: Readonly<Record<string, unknown>>): (name: string) => VarFingerprint {
  const known = new Map<string, VarFingerprint>();
  return (name) => {
    let fingerprint = known.get(name);
    if (fingerprint === undefined) known.set(name, (fingerprint = varFingerprint(vars, name)));
    return fingerprint;
  };
}

/** Whether a capture that read the vars `read` (name -> fingerprint then) holds where the vars are `now`. */
export function sameVars(read: Readonly<Record<string, VarFingerprint>>, now: (name: string) => VarFingerprint): boolean {
  for (const name in read) {
    const then = read[name];
    if (then === null || then === undefined || then !== now(name)) return false;
  }
  return true;
}

/** The fingerprints of the vars a capture read (`fingerprint`: of the vars it was captured with). */
export function varsRead(capture: ModelCapture, fingerprint: (name: string) => VarFingerprint): Record<string, VarFingerprint> {
  const read: Record<string, VarFingerprint> = {};
  for (const name of capture.vars ?? []) read[name] = fingerprint(name);
  return read;
}

/**
 * Every model's capture behind a manifest, keyed by its models map (which a
 * spread of the manifest, as `withVars` and `loadSession` make, keeps). Each
 * holds under the manifest's vars.
 */
const capturesBehind = new WeakMap<Manifest['models'], ReadonlyMap<string, ModelCapture>>();

/** Remember the captures `manifest` was built from, for `manifestWithVars`. */
export function rememberCaptures(manifest: Manifest, captures: ReadonlyMap<string, ModelCapture>): void {
  capturesBehind.set(manifest.models, captures);
}

/** captureProject, remembering every capture it used or made. */
export function captureRemembered(project: Manifest['project'], options: CaptureOptions): Manifest {
  const captures = new Map(options.cached ?? []);
  const manifest = captureProject(project, {
    ...options,
    onCapture: (name, capture) => {
      captures.set(name, capture);
      options.onCapture?.(name, capture);
    },
  });
  rememberCaptures(manifest, captures);
  return manifest;
}

/**
 * The manifest under other --vars: the same manifest (its vars replaced)
 * when no capture read a var whose value changes; otherwise captured again,
 * rendering only the models whose vars changed (the others, and the macros,
 * are reused).
 */
export function manifestWithVars(manifest: Manifest, cliVars: Readonly<Record<string, unknown>>): Manifest {
  const { project } = manifest;
  const vars = resolveVars(project.vars, project.name, cliVars);
  const before = fingerprintsOf(manifest.vars);
  const after = fingerprintsOf(vars);
  const changed = new Set<string>();
  for (const name of new Set([...Object.keys(manifest.vars), ...Object.keys(vars)])) {
    if (before(name) === null || before(name) !== after(name)) changed.add(name);
  }
  const captures = capturesBehind.get(manifest.models);
  if (captures && changed.size === 0) return { ...manifest, vars };
  // A yml value that read a changed var (a source identifier, a project-file +enabled): the nodes are built again.
  const yml = ymlRenderingOf(manifest.models);
  if (yml && yml.varsRead.some((read) => changed.has(read))) {
    return captureRemembered(project, { vars: cliVars, macroNames: manifest.macroNames, jinja: manifest.jinja });
  }
  const cached = new Map<string, ModelCapture>();
  const affected: string[] = [];
  for (const [name, capture] of captures ?? []) {
    if ((capture.vars ?? []).some((read) => changed.has(read))) affected.push(name);
    else cached.set(name, capture);
  }
  if (captures && affected.length === 0) return { ...manifest, vars };
  // Render only the affected models again: when their captures come out the same (a var read only in
  // the SQL, as most are), the manifest stands with the new vars; otherwise capture the project again.
  if (captures && sameCapturesUnder(manifest, vars, affected, captures)) {
    const withNewVars = { ...manifest, vars };
    rememberCaptures(withNewVars, captures);
    return withNewVars;
  }
  return captureRemembered(project, { vars: cliVars, cached, macroNames: manifest.macroNames, jinja: manifest.jinja });
}

/** Whether each of `names` captures the same refs, sources and config under `vars` as it did (false when one fails to render). */
function sameCapturesUnder(
  manifest: Manifest, vars: Readonly<Record<string, unknown>>, names: readonly string[], captures: ReadonlyMap<string, ModelCapture>,
): boolean {
  // The project as captured: its yml values rendered (under the same values of the vars they read).
  const project = ymlRenderingOf(manifest.models)?.project ?? manifest.project;
  const files = new Map(project.models.map((f) => [f.name, f]));
  const folders = new Map<string, Record<string, unknown>>();
  const context = {
    jinja: () => manifest.jinja,
    vars,
    sourceAlias: (s: string, t: string) => manifest.sources.get(`${s}.${t}`)?.alias ?? t,
    databasePath: project.databasePath,
    target: project.target,
  };
  return names.every((name) => {
    const file = files.get(name);
    const before = captures.get(name);
    if (!file || !before || !isPlainJson(before.config)) return false;
    try {
      const now = captureModel(file, baseModelConfig(project, file, folders), context);
      return isPlainJson(now.config) && sameCapture(before, now);
    } catch {
      return false; // captured again in full, which reports the error as a load does
    }
  });
}
