import { ProjectError } from '../errors/project-error.js';
import { gitCheckout } from './git-checkout.js';
import type { LockFile } from './lock-file.js';
import { packageProjectName } from './packages-file.js';
import type { PinContext } from './pin-context.js';
import { pinLocal } from './pin-local.js';
import type { PinnedPackage } from './pinned-package.js';
import { compareVersions, isPrerelease, isVersion } from './version-specifier.js';

/**
 * The packages of package-lock.yml, exactly as locked: a hub package at its version (its
 * tarball from the package's page of the hub; the hub's index is not read), a git package at
 * its commit, a local folder. Nothing is resolved again: the lock lists the transitive ones too.
 */
export async function pinLocked(lock: LockFile, ctx: PinContext): Promise<PinnedPackage[]> {
  const pinned: PinnedPackage[] = [];
  let n = 0;
  for (const { spec, name } of lock.packages()) {
    if (spec.kind === 'local') {
      pinned.push(pinLocal(spec, ctx));
    } else if (spec.kind === 'git') {
      const checkout = gitCheckout(spec.cloneUrl, spec.revision, spec.subdirectory, `${ctx.downloads}/locked-git-${++n}`, spec.git);
      const shown = `${spec.git}@${checkout.sha.slice(0, 7)}`;
      pinned.push({
        kind: 'git', name: name ?? packageProjectName(checkout.root, shown), git: spec.git, revision: checkout.sha,
        requested: spec.revision ?? 'HEAD', subdirectory: spec.subdirectory, root: checkout.root, deps: [],
      });
    } else {
      const version = spec.versions[0]!;
      const versions = await ctx.hub.versions(spec.package);
      const info = versions.get(version);
      if (!info) {
        throw new ProjectError(`package-lock.yml locks ${spec.package} at version ${version}, which the hub does not list`, {
          location: { file: spec.requiredBy.file, line: spec.requiredBy.line },
          hint: 'run mini-dbt deps --upgrade to resolve the packages again',
        });
      }
      const stable = [...versions.keys()].filter((v) => isVersion(v) && !isPrerelease(v)).sort(compareVersions);
      pinned.push({
        kind: 'hub', name: name ?? info.name, package: spec.package, version, latest: stable.at(-1) ?? version, tarball: info.tarball, deps: [],
      });
    }
  }
  return pinned;
}
