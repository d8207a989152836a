import type { PackageSpec } from './package-spec.js';

/** A package resolved to one exact thing to install, with its project name (its install folder). */
export type PinnedPackage =
  | {
    readonly kind: 'hub';
    readonly name: string;
    readonly package: string;
    readonly version: string;
    /** The newest installable version (for "Updated version available"). */
    readonly latest: string;
    readonly tarball: string;
    readonly deps: readonly PackageSpec[];
  }
  | {
    readonly kind: 'git';
    readonly name: string;
    readonly git: string;
    /** The commit checked out. */
    readonly revision: string;
    /** The revision asked for (a branch, a tag, a sha, HEAD). */
    readonly requested: string;
    readonly subdirectory?: string;
    /** The checked-out package folder in the downloads folder. */
    readonly root: string;
    readonly deps: readonly PackageSpec[];
  }
  | {
    readonly kind: 'local';
    readonly name: string;
    readonly local: string;
    /** The absolute folder the install path links to. */
    readonly path: string;
    readonly deps: readonly PackageSpec[];
  };

/** The package as dbt's deps prints it: the hub name, the git URL (and subdirectory), the local path. */
export function pinnedName(p: PinnedPackage): string {
  if (p.kind === 'hub') return p.package;
  if (p.kind === 'local') return p.local;
  return p.subdirectory ? `${p.git}/${p.subdirectory}` : p.git;
}

/** dbt's "Installed from ..." wording. */
export function niceVersionName(p: PinnedPackage): string {
  if (p.kind === 'hub') return `version ${p.version}`;
  if (p.kind === 'local') return `<local @ ${p.local}>`;
  return `revision ${p.revision}`;
}
