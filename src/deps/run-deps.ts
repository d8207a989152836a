import { resolve } from 'node:path';
import { loadProjectFile } from '../project/load-project-file.js';
import { addPackage, type PackageSource } from './add-package.js';
import { HubClient } from './hub-client.js';
import { installPath } from './install-path.js';
import { createStaging, installPinned, removeStaging, swapInstall, type DepsLog } from './install-packages.js';
import { packagesHash, readLockFile, writeLockFile } from './lock-file.js';
import { readDeclaredPackages } from './packages-file.js';
import { pinLocked } from './pin-locked.js';
import type { PinnedPackage } from './pinned-package.js';
import { resolvePackages } from './resolve-packages.js';

export interface DepsOptions {
  readonly projectRoot: string;
  /** --upgrade: resolve again, ignoring package-lock.yml. */
  readonly upgrade?: boolean;
  /** --lock: write package-lock.yml only. */
  readonly lockOnly?: boolean;
  /** --add-package NAME@VERSION and --source. */
  readonly addPackage?: string;
  readonly source?: PackageSource;
  readonly log: DepsLog;
}

/**
 * dbt's deps: resolve the packages file (or reuse package-lock.yml while the packages file's hash
 * matches it), write the lock, and install every package into a temporary folder next to the
 * install path, renamed into place only when all of them are installed.
 */
export async function runDeps(options: DepsOptions): Promise<void> {
  const root = resolve(options.projectRoot);
  const project = loadProjectFile(root);
  if (options.addPackage) addPackage(root, options.addPackage, options.source ?? 'hub', options.log);
  const declared = readDeclaredPackages(root);
  const installDir = installPath(root, project.config['packages-install-path']);
  const staging = createStaging(installDir);
  try {
    const ctx = { projectRoot: root, downloads: staging.downloads, hub: new HubClient() };
    const hash = packagesHash(declared.entries);
    const lock = readLockFile(root);
    let pinned: PinnedPackage[];
    let relocked = false;
    if (declared.specs.length === 0) {
      options.log(`Warning: No packages were found in ${declared.file ?? 'packages.yml'}`, 'DepsNoPackagesFound');
      pinned = [];
    } else if (!lock || options.upgrade || lock.hash !== hash) {
      pinned = await resolvePackages(declared.specs, ctx, project.config.name);
      relocked = true;
    } else if (options.lockOnly) {
      return;
    } else {
      pinned = await pinLocked(lock, ctx);
    }
    // The lock is written once the packages are in place (with --lock, at once): a failed
    // install leaves both the install path and the lock as they were.
    const writeLock = () => options.log(`Updating lock file in file path: ${writeLockFile(root, pinned, hash)}`, 'DepsLockUpdating');
    if (options.lockOnly) {
      if (relocked) writeLock();
      return;
    }
    await installPinned(pinned, staging, options.log);
    swapInstall(staging, installDir);
    if (relocked) writeLock();
  } finally {
    removeStaging(staging);
  }
}
