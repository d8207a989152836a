import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ProjectError } from '../errors/project-error.js';
import { DBT_VERSION } from '../invocation/tool-version.js';
import { didYouMeanSuffix } from '../errors/did-you-mean.js';
import { warnUser } from '../errors/user-warning.js';
import { gitCheckout } from './git-checkout.js';
import type { HubClient } from './hub-client.js';
import { parsePackageEntries, type GitSpec, type HubSpec, type LocalSpec } from './package-spec.js';
import { packageProjectName, readDeclaredPackages } from './packages-file.js';
import type { PinnedPackage } from './pinned-package.js';
import { inRange, pythonList, rangeText, reduceSpecifiers } from './version-range.js';
import { compareVersions, isPrerelease, isVersion, parseVersionSpecifier, specifierText } from './version-specifier.js';

export interface PinContext {
  readonly projectRoot: string;
  /** Where git packages are cloned (inside the install's temporary folder). */
  readonly downloads: string;
  readonly hub: HubClient;
}

/** A hub package with every requirement on it so far (dbt's incorporate: the version lists add up). */
export async function pinHub(reqs: readonly HubSpec[], ctx: PinContext): Promise<PinnedPackage> {
  const name = reqs[0]!.package;
  const first = reqs[0]!.requiredBy;
  const names = await ctx.hub.packageNames();
  if (!names.includes(name)) {
    throw new ProjectError(`Package ${name} was not found in the package index.${didYouMeanSuffix(name, names)}`, {
      location: { file: first.file, line: first.line },
      hint: `hub packages are named <organisation>/<package>, as listed on ${ctx.hub.baseUrl}`,
    });
  }
  const written = reqs.flatMap((r) => r.versions);
  const range = reduceSpecifiers(written);
  if (!range) {
    const options = pythonList(written.map((v) => specifierText(parseVersionSpecifier(v))));
    const by = reqs.map((r) => `${r.versions.map((v) => specifierText(parseVersionSpecifier(v))).join(', ')} by ${r.requiredBy.label}`);
    throw new ProjectError(`Version error for package ${name}: Could not find a satisfactory version from options: ${options}`, {
      hint: `${name} is required as ${by.join(' and as ')}: no version satisfies all of them`,
    });
  }
  const versions = await ctx.hub.versions(name);
  const prerelease = reqs.some((r) => r.installPrerelease || r.versions.some((v) => parseVersionSpecifier(v).prerelease));
  // As dbt: only versions whose require_dbt_version admits the dbt version (unless the check is off).
  const versionCheck = !/^(false|0|no)$/i.test(process.env.DBT_VERSION_CHECK ?? '');
  const compatible = [...versions.values()].filter((v) => !versionCheck || worksWithDbt(v.requireDbtVersion)).map((v) => v.version);
  const installable = compatible.filter((v) => isVersion(v) && (prerelease || !isPrerelease(v))).sort(compareVersions);
  const target = installable.filter((v) => inRange(v, range)).at(-1);
  if (!target) {
    throw new ProjectError(
      `Could not find a matching compatible version for package ${name}\n  Requested range: ${rangeText(range)}\n  Compatible versions: ${pythonList(installable)}` +
        (versionCheck ? `\n  Not shown: package versions incompatible with the dbt version mini-dbt behaves as (${DBT_VERSION})\n  To include them, set DBT_VERSION_CHECK=false (dbt's --no-version-check)` : ''),
      { location: { file: first.file, line: first.line }, hint: `pick a version range that includes one of the versions the hub lists for ${name}` },
    );
  }
  const info = versions.get(target)!;
  const label = `${name}@${target}`;
  return {
    kind: 'hub',
    name: info.name,
    package: name,
    version: target,
    latest: installable.at(-1)!,
    tarball: info.tarball,
    deps: parsePackageEntries(info.packages, { label }),
  };
}

/** A hub version's require_dbt_version admits the dbt version mini-dbt behaves as (unreadable specifiers admit it). */
function worksWithDbt(required: readonly string[]): boolean {
  if (required.length === 0) return true;
  try {
    return reduceSpecifiers([DBT_VERSION, ...required]) !== undefined;
  } catch {
    return true;
  }
}

let checkouts = 0;

/** A git package at its one revision, cloned into the downloads folder. */
export function pinGit(reqs: readonly GitSpec[], ctx: PinContext): PinnedPackage {
  const spec = reqs[0]!;
  const revisions = [...new Set(reqs.flatMap((r) => (r.revision === undefined ? [] : [r.revision])))];
  const shown = spec.subdirectory ? `${spec.git}/${spec.subdirectory}` : spec.git;
  if (revisions.length > 1) {
    throw new ProjectError(`git dependencies should contain exactly one version. ${shown} contains: {${revisions.map((r) => `'${r}'`).join(', ')}}`, {
      hint: `the package is required at ${reqs.filter((r) => r.revision).map((r) => `${r.revision} by ${r.requiredBy.label}`).join(' and at ')}`,
    });
  }
  const revision = revisions[0] ?? 'HEAD';
  if ((revision === 'HEAD' || revision === 'main' || revision === 'master') && reqs.every((r) => r.warnUnpinned)) {
    const how = revision === 'HEAD' ? 'not pinned, using HEAD (default branch)' : `pinned to the "${revision}" branch`;
    warnUser(`The git package "${spec.git}" is ${how}. This can introduce breaking changes into your project without warning! Pin a tag or a commit in revision: (or set warn-unpinned: false)`, 'DepsUnpinned');
  }
  const checkout = gitCheckout(spec.cloneUrl, revisions[0], spec.subdirectory, join(ctx.downloads, `git-${++checkouts}`), spec.git);
  const where = `${shown}@${checkout.sha.slice(0, 7)}`;
  return {
    kind: 'git',
    name: packageProjectName(checkout.root, where),
    git: spec.git,
    revision: checkout.sha,
    requested: revision,
    subdirectory: spec.subdirectory,
    root: checkout.root,
    deps: readDeclaredPackages(checkout.root, where, where).specs,
  };
}

/** A local package: a folder relative to the root project (as dbt resolves every local path). */
export function pinLocal(spec: LocalSpec, ctx: PinContext): PinnedPackage {
  const path = isAbsolute(spec.local) ? spec.local : resolve(ctx.projectRoot, spec.local);
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new ProjectError(`local package '${spec.local}' does not exist: no folder ${path}`, {
      location: { file: spec.requiredBy.file, line: spec.requiredBy.line },
      hint: 'local: is a folder path relative to the project folder',
    });
  }
  return { kind: 'local', name: packageProjectName(path, spec.local), local: spec.local, path, deps: readDeclaredPackages(path, spec.local, spec.local).specs };
}
