import { ProjectError } from '../errors/project-error.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { PackagesJinjaError, renderEnvVars } from './render-env-vars.js';
import { parseVersionSpecifier } from './version-specifier.js';

/** Who asked for a package: the root's packages file, or an installed package (`acme/orders@1.2.0`). */
export interface Requirer {
  readonly label: string;
  readonly file?: string;
  readonly line?: number;
}

interface SpecBase {
  readonly requiredBy: Requirer;
  /** The entry as written (the lock file's hash is taken over these). */
  readonly entry: Readonly<Record<string, unknown>>;
}
export interface LocalSpec extends SpecBase { readonly kind: 'local'; readonly local: string }
export interface GitSpec extends SpecBase {
  readonly kind: 'git';
  /** The URL as written (an env_var() call unrendered): what messages and the lock file show. */
  readonly git: string;
  /** The URL to clone (env_var() rendered: it may hold a token). */
  readonly cloneUrl: string;
  readonly revision?: string;
  readonly subdirectory?: string;
  readonly warnUnpinned: boolean;
}
export interface HubSpec extends SpecBase {
  readonly kind: 'hub';
  readonly package: string;
  /** dbt's range specifiers, each as written (`>=1.0.0`, `<2.0.0`, `1.3.0`). */
  readonly versions: readonly string[];
  readonly installPrerelease: boolean;
}
/** One entry of packages.yml / dependencies.yml: the three kinds of package dbt installs that mini-dbt does. */
export type PackageSpec = LocalSpec | GitSpec | HubSpec;

const KIND_KEYS = ['local', 'git', 'package'] as const;
const KNOWN_KEYS = ['local', 'git', 'package', 'version', 'revision', 'subdirectory', 'warn-unpinned', 'install-prerelease', 'install_prerelease', 'name', 'tarball', 'private'];

/**
 * The entries of a packages file, checked as dbt checks them: a mapping with `local`, `git` or
 * `package` (a hub package, which needs a `version`). `lineOf` places each error on its entry.
 */
export function parsePackageEntries(
  entries: readonly unknown[],
  requiredBy: Requirer,
  lineOf: (path: readonly (string | number)[]) => number | undefined = () => undefined,
): PackageSpec[] {
  return entries.map((raw, i) => {
    const at = (key?: string) => ({ file: requiredBy.file, line: lineOf(key === undefined ? ['packages', i] : ['packages', i, key]) ?? requiredBy.line });
    const entryError = (message: string, key?: string, hint?: string) => new ProjectError(message, { location: at(key), hint });
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw entryError(`package entry ${i + 1} must be a mapping (e.g. package: dbt-labs/dbt_utils), got ${JSON.stringify(raw)}`);
    }
    const entry = raw as Record<string, unknown>;
    const requirer = { ...requiredBy, line: at().line };
    const kinds = KIND_KEYS.filter((k) => entry[k] !== undefined);
    if (kinds.length !== 1) {
      const keys = Object.keys(entry);
      if (entry.tarball !== undefined || entry.private !== undefined) {
        throw entryError(`package entry ${i + 1} is a ${entry.tarball !== undefined ? 'tarball' : 'private'} package: mini-dbt installs local, git and hub packages`);
      }
      const unknown = keys.find((k) => !KNOWN_KEYS.includes(k));
      const why = kinds.length === 0 ? `has none of them (its keys: ${keys.join(', ') || 'none'})` : `has ${kinds.join(' and ')}`;
      throw entryError(
        `package entry ${i + 1} is none of the kinds of package: it needs exactly one of 'local' (a path), 'git' (a repository URL) or 'package' (a hub package), and ${why}.${unknown ? didYouMeanSuffix(unknown, KIND_KEYS) : ''}`,
      );
    }
    const rendered = (v: string, key: string): string => {
      try {
        return renderEnvVars(v);
      } catch (err) {
        if (err instanceof PackagesJinjaError) throw entryError(`package entry ${i + 1}: '${key}': ${err.message}`, key);
        throw err;
      }
    };
    const text = (key: string): string | undefined => {
      const v = entry[key];
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string' && v !== '') return rendered(v, key);
      if (typeof v === 'number' && (key === 'revision' || key === 'version')) return String(v);
      throw entryError(`package entry ${i + 1}: '${key}' must be a non-empty string, got ${JSON.stringify(v)}`, key);
    };
    if (kinds[0] === 'local') return { kind: 'local', local: text('local')!, requiredBy: requirer, entry };
    if (kinds[0] === 'git') {
      return {
        kind: 'git',
        cloneUrl: text('git')!,
        git: String(entry.git),
        revision: text('revision'),
        subdirectory: text('subdirectory'),
        warnUnpinned: entry['warn-unpinned'] !== false,
        requiredBy: requirer,
        entry,
      };
    }
    const name = text('package')!;
    const version = entry.version;
    if (version === undefined || version === null || (Array.isArray(version) && version.length === 0)) {
      throw entryError(`hub package '${name}' has no version: a hub package needs one, e.g. version: [">=1.0.0", "<2.0.0"]`, 'package', 'pin an exact version (version: 1.3.0) or a range; mini-dbt deps --add-package NAME@VERSION writes one');
    }
    const versions = (Array.isArray(version) ? version : [version]).map((v) => {
      if (typeof v !== 'string' && typeof v !== 'number') throw entryError(`hub package '${name}': a version must be a string like ">=1.0.0", got ${JSON.stringify(v)}`, 'version');
      const written = typeof v === 'string' ? rendered(v, 'version') : String(v);
      try {
        parseVersionSpecifier(written);
      } catch (err) {
        throw entryError(`hub package '${name}': ${(err as Error).message}`, 'version', 'dbt reads a version as MAJOR.MINOR.PATCH, optionally after >=, >, <=, < or =');
      }
      return written;
    });
    return { kind: 'hub', package: name, versions, installPrerelease: entry['install-prerelease'] === true || entry.install_prerelease === true, requiredBy: requirer, entry };
  });
}

/** The package as dbt names it in messages: the hub name, the git URL (and subdirectory), the local path. */
export function specName(spec: PackageSpec): string {
  if (spec.kind === 'hub') return spec.package;
  if (spec.kind === 'local') return spec.local;
  return spec.subdirectory ? `${spec.git}/${spec.subdirectory}` : spec.git;
}
