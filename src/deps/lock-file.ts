import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ProjectError } from '../errors/project-error.js';
import { readYamlFile } from '../project/read-yaml-file.js';
import { parsePackageEntries, type PackageSpec } from './package-spec.js';
import { renderedValue } from './render-env-vars.js';
import type { PinnedPackage } from './pinned-package.js';

export const LOCK_FILE = 'package-lock.yml';

/** package-lock.yml: the exact packages last resolved, and the hash of the packages file they were resolved from. */
export interface LockFile {
  readonly hash?: string;
  /** Each locked entry with the project name dbt records next to it (read when asked for: a stale lock is never parsed). */
  packages(): readonly { readonly spec: PackageSpec; readonly name?: string }[];
}

/** JSON as Python's json.dumps(..., sort_keys=True) writes it, which dbt hashes. */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}: ${pythonJson((value as Record<string, unknown>)[k])}`).join(', ')}}`;
  }
  // Python's json.dumps escapes every character outside ASCII.
  return (JSON.stringify(value) ?? 'null').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * An entry as dbt's package contract serializes it before hashing: its fields (unset optional
 * ones as null, except `name`), and the entry as written under `unrendered`.
 */
function contractDict(entry: unknown): unknown {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  const e = entry as Record<string, unknown>;
  const name = e.name === undefined || e.name === null ? {} : { name: e.name };
  const or = (v: unknown) => (v === undefined ? null : renderedValue(v));
  if (e.local !== undefined) return { local: or(e.local), unrendered: e, ...name };
  if (e.git !== undefined) {
    return { git: or(e.git), revision: or(e.revision), 'warn-unpinned': or(e['warn-unpinned']), subdirectory: or(e.subdirectory), unrendered: e, ...name };
  }
  if (e.package !== undefined) {
    return { package: or(e.package), version: or(e.version), install_prerelease: e.install_prerelease ?? e['install-prerelease'] ?? false, unrendered: e, ...name };
  }
  return e;
}

/** dbt's sha1_hash: every package as dbt serializes it, as sorted-key JSON, the lines sorted, joined by newlines. */
export function packagesHash(entries: readonly unknown[]): string {
  const lines = entries.map((e) => pythonJson(contractDict(e))).sort();
  return createHash('sha1').update(lines.join('\n'), 'utf8').digest('hex');
}

/** The lock entry dbt writes for a package: its spec pinned (a commit sha, an exact version) and its name. */
export function lockEntry(p: PinnedPackage): Record<string, string> {
  if (p.kind === 'hub') return { package: p.package, version: p.version, name: p.name };
  if (p.kind === 'local') return { local: p.local, name: p.name };
  return { git: p.git, revision: p.revision, ...(p.subdirectory ? { subdirectory: p.subdirectory } : {}), name: p.name };
}

/** Write package-lock.yml as dbt does: keys sorted, the list indented under `packages:`. */
export function writeLockFile(projectRoot: string, packages: readonly PinnedPackage[], hash: string): string {
  const path = join(projectRoot, LOCK_FILE);
  writeFileSync(path, stringify({ packages: packages.map(lockEntry), sha1_hash: hash }, { sortMapEntries: true, indentSeq: true }));
  return path;
}

/** The lock file, or undefined when there is none. */
export function readLockFile(projectRoot: string): LockFile | undefined {
  const path = join(projectRoot, LOCK_FILE);
  if (!existsSync(path)) return undefined;
  const yaml = readYamlFile(path, LOCK_FILE);
  const value = (yaml.value ?? {}) as { packages?: unknown; sha1_hash?: unknown };
  if (typeof value !== 'object' || Array.isArray(value)) throw new ProjectError(`${LOCK_FILE} must be a mapping with a 'packages' list`, { location: { file: LOCK_FILE, line: 1 } });
  const entries = Array.isArray(value.packages) ? value.packages : [];
  return {
    hash: typeof value.sha1_hash === 'string' ? value.sha1_hash : undefined,
    packages: () => parsePackageEntries(entries, { label: LOCK_FILE, file: LOCK_FILE }, (p) => yaml.lineOf(p)).map((spec, i) => {
      const name = (entries[i] as { name?: unknown }).name;
      return { spec, name: typeof name === 'string' ? name : undefined };
    }),
  };
}
